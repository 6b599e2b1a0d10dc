import Domain
import DomainTestSupport
import Foundation
import IntegrationTestSupport
import ProcessKit
import SyncComposition
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tokens-server` on PostgreSQL when things fail: nothing acknowledged is lost, nothing is
/// applied twice.
@Suite(
    "tokens-server faults",
    .enabled(
        if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
        "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"))
struct ServerFaultTests {
    /// Every entry of the database `database`: its id and sequence.
    static func storedEntries(_ database: String) throws -> [(id: String, sequence: Int)] {
        let rows = try ProcessRunner.run(
            "psql", ["-d", database, "-Atc", "SELECT id, seq FROM entry ORDER BY seq"], environment: ProcessInfo.processInfo.environment)
        try #require(rows.status == 0, "\(rows.stderr)")
        return rows.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "|")
            guard fields.count == 2, let sequence = Int(fields[1]) else { return nil }
            return (String(fields[0]).lowercased(), sequence)
        }
    }

    /// A client's 10 new entries, the second five held until `released()` (so that, however fast
    /// or slow the machine, they meet the fault); `push` sends each until it is acknowledged.
    static func tenPushes(
        client: Int, heldUntil released: () -> Bool, _ push: (_ entry: Int, _ body: [String: Any], _ id: String) async throws -> Void
    ) async throws {
        for entry in 0..<10 {
            if entry == 5 {
                while !released() { try await Task.sleep(for: .milliseconds(5)) }
            }
            let body = ServerProcessTests.newEntry(Data("client \(client) entry \(entry)".utf8))
            let id = try #require(((body["changes"] as? [[String: Any]])?.first?["id"] as? String)?.lowercased())
            try await push(entry, body, id)
        }
    }

    /// `TestDatabase.with`, once a run that must have PostgreSQL is seen to have it.
    static func withDatabase(_ prefix: String, _ body: (_ name: String, _ url: String) async throws -> Void) async throws {
        #expect(ProcessInfo.processInfo.environment["PGHOST"] != nil, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        try await TestDatabase.with(prefix: prefix, body)
    }

    /// What the clients and the killer share: the running server, and what was acknowledged.
    final class Run: Sendable {
        let server: Mutex<ServerProcess>
        let acknowledged = Mutex<[String: Int]>([:])
        /// Pushes sent again after a failure.
        let retries = Mutex(0)
        /// Set once the server is killed: each client holds its second half of pushes until then,
        /// so that, however fast or slow the machine, pushes meet the killed server.
        let killed = Mutex(false)

        init(_ server: ServerProcess) { self.server = Mutex(server) }

        var current: ServerProcess { server.withLock { $0 } }
    }

    @Test(
        "SIGKILL in the middle of pushes from 4 clients: they retry against the restarted server, and the database ends with every acknowledged change exactly once",
        .timeLimit(.minutes(10)))
    func killedDuringPushes() async throws {
        try await Self.withDatabase("tokens_kill") { database, url in
            let environment = ["TOKENS_SERVER_DATABASE_URL": url]
            let first = try ServerProcess(["--phase", "alpha"], environment: environment)
            let port = try #require(first.baseURL.port)
            let run = Run(first)
            let account = UUID().uuidString.lowercased()
            let authKey = ServerProcessTests.authKey
            #expect(try await first.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": authKey]).status == 201)
            let enrolled = try await first.request("POST", "/v1/accounts/\(account)/devices", json: ["authKey": authKey, "name": "laptop"])
            let token = try #require(ServerProcessTests.json(enrolled.body)["token"] as? String)
            // 4 clients, 10 new entries each; a push that fails is sent again, the same bytes,
            // every 50 ms for at most 30 s. The second five of each wait for the kill.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<4 {
                    group.addTask {
                        try await Self.tenPushes(client: client, heldUntil: { run.killed.withLock { $0 } }) { _, body, id in
                            var attempts = 0
                            while true {
                                if let answer = try? await run.current.request("POST", "/v1/entries", json: body, token: token),
                                    answer.status == 200,
                                    let result = (ServerProcessTests.json(answer.body)["results"] as? [[String: Any]])?.first,
                                    let sequence = result["sequence"] as? Int
                                {
                                    run.acknowledged.withLock { $0[id] = sequence }
                                    break
                                }
                                attempts += 1
                                run.retries.withLock { $0 += 1 }
                                try #require(attempts < 600, "a push still failing after 30 s")
                                try await Task.sleep(for: .milliseconds(50))
                            }
                        }
                    }
                }
                // The killer: once 10 changes are acknowledged, SIGKILL while the clients push;
                // once a client has met the dead server, the same server again on the same port.
                group.addTask {
                    while run.acknowledged.withLock({ $0.count }) < 10 { try await Task.sleep(for: .milliseconds(5)) }
                    let killed = run.current
                    killed.child.send(SIGKILL)
                    #expect(killed.child.wait() == .signalled(SIGKILL))
                    run.killed.withLock { $0 = true }
                    var waited = 0
                    while run.retries.withLock({ $0 }) == 0, waited < 2_000 {
                        try await Task.sleep(for: .milliseconds(5))
                        waited += 1
                    }
                    let restarted = try ServerProcess(["--phase", "alpha"], environment: environment, port: port)
                    run.server.withLock { $0 = restarted }
                }
                try await group.waitForAll()
            }
            let acked = run.acknowledged.withLock { $0 }
            let stored = try Self.storedEntries(database)
            #expect(acked.count == 40)
            #expect(run.retries.withLock { $0 } > 0, "the clients met the killed server")
            #expect(stored.count == 40, "each change stored once")
            #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.sequence) }) == acked, "as acknowledged")
            #expect(stored.map(\.sequence) == Array(1...40), "no sequence used twice or skipped")
            #expect(run.current.stop() == .exited(0))
        }
    }

    @Test(
        "PostgreSQL stopped while a client syncs: 503 with Retry-After while it is down, never a 500 or a hang; started again, the server reconnects by itself and the client's retry is stored once",
        .timeLimit(.minutes(10)))
    func postgresRestarted() async throws {
        let postgres = try OwnPostgres(port: try LoopbackPort.free())
        let server = try ServerProcess(
            ["--phase", "alpha", "--metrics-port", "0"], environment: ["TOKENS_SERVER_DATABASE_URL": postgres.url])
        let metrics = try #require(await server.metricsURL())
        let account = UUID().uuidString.lowercased()
        let authKey = ServerProcessTests.authKey
        #expect(try await server.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": authKey]).status == 201)
        let enrolled = try await server.request("POST", "/v1/accounts/\(account)/devices", json: ["authKey": authKey, "name": "laptop"])
        let token = try #require(ServerProcessTests.json(enrolled.body)["token"] as? String)
        #expect(
            try await server.request("POST", "/v1/entries", json: ServerProcessTests.newEntry(Data("before".utf8)), token: token).status
                == 200)

        try postgres.stop()
        let body = ServerProcessTests.newEntry(Data("while down".utf8))
        let down = try await server.request("POST", "/v1/entries", json: body, token: token)
        #expect(down.status == 503 && down.contentType == "application/problem+json", "\(down.status)")
        #expect(down.retryAfter == "5")
        #expect(try await server.request("GET", "/v1/entries?after=0", token: token).status == 503)

        try postgres.start()
        // The client retries the same push as Retry-After says (here every half second), for at
        // most two minutes: the pool reconnects on its own backoff.
        var answer = down
        for _ in 0..<240 where answer.status != 200 {
            try await Task.sleep(for: .milliseconds(500))
            answer = try await server.request("POST", "/v1/entries", json: body, token: token)
            #expect(answer.status == 200 || answer.status == 503, "\(answer.status)")
        }
        #expect(answer.status == 200)
        let pulled = try await server.request("GET", "/v1/entries?after=0", token: token)
        let entries = ServerProcessTests.json(pulled.body)["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["ciphertext"] as? String } == ["before", "while down"].map { Data($0.utf8).base64EncodedString() })
        // The outage in the metrics: the store's failures by kind, the 503s as refusals.
        let scraped = String(decoding: try await URLSession.shared.data(from: metrics).0, as: UTF8.self)
        // Unreachable, or past the call's deadline while the pool waits to reconnect: by timing.
        #expect(scraped.contains(try Regex(#"tokens_database_errors_total\{kind="(unreachable|deadline)"\} [1-9]"#)))
        #expect(scraped.contains(#"tokens_sync_refusals_total{reason="database_unreachable"}"#))
        #expect(scraped.contains("tokens_database_calls_in_flight 0"))
        #expect(server.stop() == .exited(0))
    }

    @Test(
        "the connection cut after the server stored a push, before the client read the answer: the retry is recognised as already applied, at the same sequence",
        .timeLimit(.minutes(10)))
    func answerLost() async throws {
        try await Self.withDatabase("tokens_lost_answer") { _, url in
            let server = try ServerProcess(["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": url])
            let proxy = try FaultProxy(target: try #require(server.baseURL.port))
            let token = try await ServerProcessTests.enrolledDevice(server)
            let body = ServerProcessTests.newEntry(Data("once".utf8))
            proxy.set(.dropAnswers)
            let lost = try? await server.request("POST", "/v1/entries", json: body, token: token, via: proxy.url)
            #expect(lost == nil || lost?.status != 200, "the answer should not have arrived")
            // The server did store it: the answer was cut on its way back.
            let stored = try await server.request("GET", "/v1/entries?after=0", token: token)
            #expect((ServerProcessTests.json(stored.body)["entries"] as? [Any])?.count == 1)
            proxy.set(.pass)
            let retried = try await server.request("POST", "/v1/entries", json: body, token: token, via: proxy.url)
            #expect(retried.status == 200)
            #expect((ServerProcessTests.json(retried.body)["results"] as? [[String: Any]])?.first?["sequence"] as? Int == 1)
            let pulled = try await server.request("GET", "/v1/entries?after=0", token: token)
            #expect((ServerProcessTests.json(pulled.body)["entries"] as? [Any])?.count == 1, "stored once")
            proxy.stop()
            #expect(server.stop() == .exited(0))
        }
    }

    /// Runs `body` with an enrolled device's two remotes through `proxy`: one with the patient
    /// timeout of the other process tests (this process runs every suite at once, and a request
    /// can wait long for a free thread), one with a 2 s timeout, to be cut off by the network.
    static func withRemotes(
        through proxy: FaultProxy, _ body: (_ patient: any SyncRemote, _ hasty: any SyncRemote) async throws -> Void
    ) async throws {
        let account = SyncClientProcessTests.Account()
        try await SyncConnection.with(server: proxy.url, timeout: SyncClientProcessTests.timeout) { patient in
            let opening = patient.makeAccountRemote(key: account.key, account: account.id)
            try await opening.createAccount(invitation: nil)
            let token = try await opening.enrol(deviceName: "laptop", deviceKey: [0xD0]).token
            try await SyncConnection.with(server: proxy.url, timeout: .seconds(2)) { hasty in
                try await body(
                    patient.makeRemote(key: account.key, account: account.id, token: token),
                    hasty.makeRemote(key: account.key, account: account.id, token: token))
            }
        }
    }

    /// Pushes a new record through `remote` and pulls it back.
    static func pushAndPull(_ remote: any SyncRemote, issuer: String) async throws {
        let record = SyncRecord.sample(UUID(), issuer: issuer)
        let pushed = try await remote.push([RemoteChange(record: record, basedOn: 0)])
        guard case .applied = pushed.first else {
            Issue.record("not applied: \(pushed)")
            return
        }
        #expect(try await remote.pull(after: 0).entries.map(\.record) == [record])
    }

    @Test(
        "a partitioned or slow network: the real client's request is its timed-out error within its timeout, never a hang; once the network is back (or slow but within the timeout), it syncs",
        .timeLimit(.minutes(10)),
        arguments: [
            (FaultProxy.Mode.partition, FaultProxy.Mode.pass),
            (FaultProxy.Mode.slow(milliseconds: 3_000), FaultProxy.Mode.slow(milliseconds: 200)),
        ])
    func badNetwork(cut: FaultProxy.Mode, recovered: FaultProxy.Mode) async throws {
        let server = try ServerProcess(["--phase", "dev"])
        let proxy = try FaultProxy(target: try #require(server.baseURL.port))
        try await Self.withRemotes(through: proxy) { patient, hasty in
            proxy.set(cut)
            await #expect(throws: SyncError.timedOut) { try await hasty.pull(after: 0) }
            proxy.set(recovered)
            try await Self.pushAndPull(patient, issuer: "after the network was cut")
        }
        proxy.stop()
        #expect(server.stop() == .exited(0))
    }
}
