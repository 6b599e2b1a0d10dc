import Foundation
import IntegrationTestSupport
import Testing

extension ServerFaultTests {
    @Test(
        "disk full: the push that finds no space is 503 with Retry-After and stores nothing; every earlier push is intact; once there is room the same push is stored",
        .timeLimit(.minutes(10)))
    func diskFull() async throws {
        let disk: SmallFilesystem
        do {
            disk = try SmallFilesystem(megabytes: 1)
        } catch {
            #expect(!RequiredTests.all, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must test a full disk: \(error)")
            print("skipped the disk-full test: \(error)")
            return
        }
        let postgres = try OwnPostgres(port: try LoopbackPort.free())
        let server = try ServerProcess(["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": postgres.url])
        let token = try await ServerProcessTests.enrolledDevice(server)
        // The entries (and their TOAST table) live on the 1 MB filesystem.
        try postgres.sql("CREATE TABLESPACE small LOCATION '\(disk.path)'")
        try postgres.sql("ALTER TABLE entry SET TABLESPACE small")

        // 8 KiB entries that do not compress, until one is refused (at most 400: 3 MB).
        var generator = SystemRandomNumberGenerator()
        var acknowledged: [Int] = []
        var refused: (request: [String: Any], status: Int, body: Data, contentType: String?, retryAfter: String?)?
        for _ in 0..<400 where refused == nil {
            let body = ServerProcessTests.newEntry(Data((0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            let answer = try await server.request("POST", "/v1/entries", json: body, token: token)
            if answer.status == 200 {
                acknowledged.append(acknowledged.count + 1)
            } else {
                refused = (body, answer.status, answer.body, answer.contentType, answer.retryAfter)
            }
        }
        let answer = try #require(refused, "1 MB never filled")
        #expect(answer.status == 503 && answer.contentType == "application/problem+json", "\(answer.status)")
        #expect(answer.retryAfter != nil)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("the server's database is full; nothing was stored"))
        #expect(!acknowledged.isEmpty)

        func sequences() async throws -> [Int] {
            let pulled = try await server.request("GET", "/v1/entries?after=0", token: token)
            #expect(pulled.status == 200)
            return (ServerProcessTests.json(pulled.body)["entries"] as? [[String: Any]] ?? []).compactMap { $0["sequence"] as? Int }
        }
        #expect(try await sequences() == acknowledged, "every acknowledged push intact, nothing of the refused one")

        try disk.grow(to: 64)
        let retried = try await server.request("POST", "/v1/entries", json: answer.request, token: token)
        #expect(retried.status == 200)
        #expect(
            (ServerProcessTests.json(retried.body)["results"] as? [[String: Any]])?.first?["sequence"] as? Int == acknowledged.count + 1)
        #expect(try await sequences() == acknowledged + [acknowledged.count + 1])
        #expect(server.stop() == .exited(0))
        try postgres.stop()
        withExtendedLifetime(disk) {}  // unmounted only now, after PostgreSQL stopped
    }
}
