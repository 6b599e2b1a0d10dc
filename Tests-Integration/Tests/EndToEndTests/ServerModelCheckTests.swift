import Domain
import DomainTestSupport
import Foundation
import IntegrationTestSupport
import SyncModelTestSupport
import Testing

/// The lifecycle model check's smaller run, against the real `tokens-server` on PostgreSQL over
/// HTTP: the same machines (real vaults, the real merge and sync use case) and oracle as Data's
/// in-memory check, through the client `tokens sync` uses, with a server and database of its own
/// per history. Histories are those a real server can take (ModelCheck.honestScenario): no
/// dishonest server, and the server's backup and restore done with pg_dump and pg_restore.
///
/// `make test` runs 16 histories from a fixed seed; `make model-check-server` (and `make stress`)
/// 300 from a new one (TOKENS_MODEL_SERVER_HISTORIES, TOKENS_MODEL_SERVER_SEED); `make
/// model-check-server SEED=N` (TOKENS_MODEL_SERVER_REPLAY=N) runs the one history of seed N.
@Suite(
    "Sync lifecycle model check against tokens-server on PostgreSQL",
    .enabled(
        if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
        "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"))
struct ServerModelCheckTests {
    static let environment = ProcessInfo.processInfo.environment
    static let histories = Int(environment["TOKENS_MODEL_SERVER_HISTORIES"] ?? "") ?? 16
    static let firstSeed = UInt64(environment["TOKENS_MODEL_SERVER_SEED"] ?? "") ?? 20_261_127
    static let replay = UInt64(environment["TOKENS_MODEL_SERVER_REPLAY"] ?? "")

    /// A fresh server and database per run; `losing` wraps it in a client that drops the last
    /// change of every push and acknowledges it all the same.
    static func scope(losing: Bool = false) -> ModelCheck.ServerScope {
        { run, body in
            let (name, url) = try await offThePool { try TestDatabase.create(prefix: "tokens_model") }
            let host: ModelServerOnPostgres
            do { host = try await ModelServerOnPostgres.start(database: name, url: url) } catch {
                _ = try? await offThePool { TestDatabase.drop(name) }
                throw error
            }
            let result: Result<[String], any Error>
            do {
                result = .success(
                    try await HTTPModelServer.with(host: host) { server in try await body(losing ? LosingPushes(server: server) : server) })
            } catch { result = .failure(error) }
            await host.stop()
            _ = try? await offThePool { TestDatabase.drop(name) }
            return try result.get()
        }
    }

    @Test("random histories through the real server: every machine and the server end the same, and nothing the oracle promises is lost")
    func histories() async throws {
        let scope = Self.scope()
        let seeds = Self.replay.map { [$0] } ?? (0..<UInt64(Self.histories)).map { Self.firstSeed &+ $0 }
        print(
            "lifecycle model check on tokens-server: \(seeds.count) histories from seed \(seeds.first ?? 0) (replay one: make model-check-server SEED=N)"
        )
        var failing: [(seed: UInt64, problems: [String])] = []
        for seed in seeds {
            let (run, history) = ModelCheck.honestScenario(seed)
            let problems = await ModelCheck.problems(run, history, on: scope)
            if !problems.isEmpty { failing.append((seed, problems)) }
            if failing.count >= 2 { break }
        }
        if let first = failing.first {
            let (run, history) = ModelCheck.honestScenario(first.seed)
            // Each run starts a server and a database: the shrinking is bounded to 40 runs.
            let shortest = await ModelCheck.shrink(history, run, on: scope, runs: 40)
            Issue.record(
                Comment(
                    rawValue: ModelCheck.report(
                        seed: first.seed, problems: first.problems, failing: failing.count,
                        replay: "make model-check-server SEED=\(first.seed)",
                        run: run, shortest: shortest, shortestProblems: await ModelCheck.problems(run, shortest, on: scope))))
        }
    }

    @Test("the check can fail: through a client that drops a change of every push and acknowledges it, the same history is caught")
    func catchesALosingClient() async throws {
        // A fixed history with changes to lose, whatever seed the random histories run from.
        let (run, history) = ModelCheck.honestScenario(20_261_127)
        let honest = await ModelCheck.problems(run, history, on: Self.scope())
        let losing = await ModelCheck.problems(run, history, on: Self.scope(losing: true))
        #expect(honest.isEmpty, "\(honest)")
        #expect(!losing.isEmpty, "a client that loses changes went unnoticed")
    }
}

/// The real server behind a client that loses the last change of every push it sends, yet
/// answers "applied" for it (the model's dropped push, over HTTP).
private struct LosingPushes: ModelServer {
    let server: HTTPModelServer
    var code: SyncCode { server.code }
    var hostile: InMemorySyncRemote? { nil }
    func enrol(machine: Int) async throws -> SyncEnrolment { try await server.enrol(machine: machine) }
    func revoke(_ device: UUID) async throws { try await server.revoke(device) }
    func isRevoked(_ device: UUID) -> Bool { server.isRevoked(device) }
    func stored() async throws -> [RemoteEntry] { try await server.stored() }
    func backup() async throws { try await server.backup() }
    func restore() async throws -> Bool { try await server.restore() }
    func remote(for enrolment: SyncEnrolment) -> any SyncRemote { Losing(base: server.remote(for: enrolment)) }

    struct Losing: SyncRemote {
        let base: any SyncRemote
        func pull(after cursor: Int64) async throws(SyncError) -> RemotePage { try await base.pull(after: cursor) }
        func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
            guard let last = changes.last else { return [] }
            let sent = try await base.push(Array(changes.dropLast()))
            let head = sent.compactMap { if case .applied(let sequence) = $0 { sequence } else { nil } }.max() ?? last.basedOn
            return sent + [.applied(sequence: head + 1)]
        }
    }
}
