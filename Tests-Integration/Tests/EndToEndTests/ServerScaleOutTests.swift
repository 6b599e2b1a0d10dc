import Foundation
import IntegrationTestSupport
import Synchronization
import Testing

/// Two `tokens-server` processes on one database, clients spread over both, over HTTP.
@Suite(
    "tokens-server scaled out",
    .enabled(
        if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
        "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"))
struct ServerScaleOutTests {
    /// How long the pushers push: a few seconds in `make test`; `make stress` sets
    /// TOKENS_SCALE_OUT_SECONDS=30. Each pusher also stops after 5 000 pushes.
    static let scaleOutSeconds = Double(ProcessInfo.processInfo.environment["TOKENS_SCALE_OUT_SECONDS"] ?? "") ?? 3
    /// Pushes each pusher makes whatever the time: the check must not depend on how fast a busy
    /// machine serves them (with the other core busy, a 3 s window once saw none at all).
    static let pushesEach = 20

    @Test(
        "8 pushers spread over two server processes and a long-polling puller on one: the puller ends equal to the database, every acknowledged push stored once, no sequence used twice",
        .timeLimit(.minutes(10)))
    func pushersAndPullerOnTwoProcesses() async throws {
        try await ServerFaultTests.withDatabase("tokens_scale_out") { database, url in
            let environment = ["TOKENS_SERVER_DATABASE_URL": url]
            let servers = [
                try ServerProcess(["--phase", "alpha"], environment: environment),
                try ServerProcess(["--phase", "alpha"], environment: environment),
            ]
            for server in servers { #expect(await server.waitForLog("listening for changes")) }
            let token = try await ServerProcessTests.enrolledDevice(servers[0])
            let pushersDone = Mutex(false)
            // The puller long-polls the second process until the pushers are done and it has the head.
            let puller = Task {
                var pulled: [String: Int] = [:]
                var sequences: [Int] = []
                var cursor = 0
                while true {
                    let done = pushersDone.withLock { $0 }
                    let answer = try await servers[1].request("GET", "/v1/entries?after=\(cursor)&wait=1", token: token)
                    try #require(answer.status == 200, "pull: \(answer.status)")
                    let page = ServerProcessTests.json(answer.body)
                    for entry in page["entries"] as? [[String: Any]] ?? [] {
                        let id = try #require((entry["id"] as? String)?.lowercased())
                        let sequence = try #require(entry["sequence"] as? Int)
                        pulled[id] = sequence
                        sequences.append(sequence)
                        cursor = sequence
                    }
                    if done, cursor == page["head"] as? Int { return (pulled, sequences) }
                }
            }
            let deadline = Date().addingTimeInterval(Self.scaleOutSeconds)
            // The puller stops once the pushers are done, however they ended.
            defer { pushersDone.withLock { $0 = true } }
            let pushed = try await withThrowingTaskGroup(of: [String: Int].self) { group in
                for pusher in 0..<8 {
                    group.addTask {
                        var mine: [String: Int] = [:]
                        for round in 0..<5_000 where round < Self.pushesEach || Date() < deadline {
                            let body = ServerProcessTests.newEntry(Data("pusher \(pusher) round \(round)".utf8))
                            let id = try #require(((body["changes"] as? [[String: Any]])?.first?["id"] as? String)?.lowercased())
                            let answer = try await servers[pusher % 2].request("POST", "/v1/entries", json: body, token: token)
                            try #require(answer.status == 200, "push: \(answer.status)")
                            let result = (ServerProcessTests.json(answer.body)["results"] as? [[String: Any]])?.first
                            mine[id] = try #require(result?["sequence"] as? Int, "a new entry was not applied")
                        }
                        return mine
                    }
                }
                return try await group.reduce(into: [:]) { $0.merge($1) { first, _ in first } }
            }
            pushersDone.withLock { $0 = true }
            let (pulled, sequences) = try await puller.value
            let stored = try ServerFaultTests.storedEntries(database)
            print("scale-out: \(pushed.count) pushes in \(Self.scaleOutSeconds) s over two processes")
            #expect(pushed.count >= 8 * Self.pushesEach, "every pusher pushed")
            #expect(pulled == pushed, "the puller has every acknowledged change, at its sequence")
            #expect(
                Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.sequence) }) == pushed,
                "the database: each acknowledged change once, as acknowledged")
            #expect(Set(sequences).count == sequences.count, "no sequence pulled twice")
            #expect(stored.map(\.sequence) == stored.indices.map { $0 + 1 }, "no sequence used twice or skipped")
            for server in servers { #expect(server.stop() == .exited(0)) }
        }
    }
}
