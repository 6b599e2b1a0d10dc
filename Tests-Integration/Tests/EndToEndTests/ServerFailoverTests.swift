import Foundation
import IntegrationTestSupport
import Synchronization
import Testing

/// `tokens-server` on PostgreSQL's streaming replication: a primary and a synchronous hot
/// standby, both in the database URL. The primary dies; the standby is promoted; the servers
/// find it by themselves, and nothing acknowledged is lost or stored twice. `make stress` runs
/// this suite many times over.
@Suite(
    "tokens-server on a primary and a synchronous standby",
    .enabled(
        if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
        "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"))
struct ServerFailoverTests {
    /// A step that did not happen within its bound.
    struct TimedOut: Error, CustomStringConvertible {
        let what: String
        var description: String { what }
    }

    /// What the clients and the killer share.
    final class Run: Sendable {
        let acknowledged = Mutex<[String: Int]>([:])
        /// Every answer other than 200, with whether it said Retry-After.
        let refusals = Mutex<[(status: Int, retryAfter: Bool)]>([])
        /// Requests that got no answer at all.
        let unanswered = Mutex(0)
        /// Set once the primary is killed: each client holds its second half of pushes until
        /// then, so that, however fast or slow the machine, pushes meet the dead primary.
        let killed = Mutex(false)
    }

    /// A primary with a synchronous standby named in `synchronous_standby_names`, once the
    /// standby streams in sync (at most 60 s).
    static func replicatedPair() async throws -> (primary: OwnPostgres, standby: OwnPostgres) {
        let primary = try OwnPostgres(port: try LoopbackPort.free())
        let standby = try OwnPostgres(port: try LoopbackPort.free(), standbyOf: primary)
        try primary.sql("ALTER SYSTEM SET synchronous_standby_names = 'standby'")
        try primary.sql("SELECT pg_reload_conf()")
        for _ in 0..<600 {
            if try primary.sql("SELECT sync_state FROM pg_stat_replication").trimmingCharacters(in: .whitespacesAndNewlines) == "sync" {
                return (primary, standby)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TimedOut(what: "the standby did not reach sync within 60 s")
    }

    /// Pushes one new entry through `server` until it is acknowledged (at most 120 s), noting
    /// every refusal; its sequence.
    static func pushUntilAcknowledged(_ body: [String: Any], to server: ServerProcess, token: String, run: Run) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            do {
                let answer = try await server.request("POST", "/v1/entries", json: body, token: token)
                if answer.status == 200, let result = (ServerProcessTests.json(answer.body)["results"] as? [[String: Any]])?.first,
                    let sequence = result["sequence"] as? Int
                {
                    return sequence
                }
                run.refusals.withLock { $0.append((answer.status, answer.retryAfter != nil)) }
            } catch {
                run.unanswered.withLock { $0 += 1 }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TimedOut(what: "a push still refused after 120 s")
    }

    @Test(
        "the primary killed with SIGKILL while 4 clients push through 2 servers, the standby promoted: 503 with Retry-After meanwhile, both servers move to the new primary by themselves, and it holds every acknowledged push exactly once",
        .timeLimit(.minutes(10)))
    func failover() async throws {
        let (primary, standby) = try await Self.replicatedPair()
        let url =
            "postgres://postgres@127.0.0.1:\(primary.port),127.0.0.1:\(standby.port)/postgres?sslmode=disable&target_session_attrs=read-write"
        let servers = try (0..<2).map { _ in try ServerProcess(["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": url]) }
        let token = try await ServerProcessTests.enrolledDevice(servers[0])
        let run = Run()
        try await withThrowingTaskGroup(of: Void.self) { group in
            // 4 clients, 10 new entries each, through the two servers in turn; the second five
            // of each wait for the kill.
            for client in 0..<4 {
                group.addTask {
                    try await ServerFaultTests.tenPushes(client: client, heldUntil: { run.killed.withLock { $0 } }) { entry, body, id in
                        let sequence = try await Self.pushUntilAcknowledged(body, to: servers[(client + entry) % 2], token: token, run: run)
                        run.acknowledged.withLock { $0[id] = sequence }
                    }
                }
            }
            // The machine of the primary dies once 10 pushes are acknowledged; once the servers
            // have refused a push (or after 5 s), the operator promotes the standby.
            group.addTask {
                while run.acknowledged.withLock({ $0.count }) < 10 { try await Task.sleep(for: .milliseconds(5)) }
                try primary.kill()
                run.killed.withLock { $0 = true }
                for _ in 0..<1_000 where run.refusals.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
                try standby.promote()
            }
            try await group.waitForAll()
        }
        let acknowledged = run.acknowledged.withLock { $0 }
        let refusals = run.refusals.withLock { $0 }
        #expect(acknowledged.count == 40)
        #expect(!refusals.isEmpty, "the clients met the dead primary")
        #expect(refusals.allSatisfy { $0.status == 503 && $0.retryAfter }, "only 503 with Retry-After: \(refusals.map(\.status))")
        #expect(run.unanswered.withLock { $0 } == 0, "every request answered")
        for server in servers {
            #expect(server.errorLog.contains("database primary moved"), "each server found the new primary itself")
        }
        let stored = try standby.sql("SELECT id, seq FROM entry ORDER BY seq").split(separator: "\n").map { line in
            let fields = line.split(separator: "|")
            return (String(fields[0]).lowercased(), Int(fields[1]) ?? 0)
        }
        #expect(stored.count == 40, "each change stored once")
        #expect(Dictionary(stored, uniquingKeysWith: { first, _ in first }) == acknowledged, "as acknowledged")
        #expect(stored.map(\.1) == Array(1...40), "no sequence used twice or skipped")
        for server in servers { #expect(server.stop() == .exited(0)) }
    }
}
