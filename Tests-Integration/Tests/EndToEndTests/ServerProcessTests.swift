import Foundation
import IntegrationTestSupport
import Testing

/// `tokens-server` as a process: DEV in memory, ALPHA on the PostgreSQL that `make test`
/// starts; a sync round trip through the HTTP API; a graceful stop on SIGTERM.
@Suite("tokens-server as a process")
struct ServerProcessTests {
    static func json(_ data: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    static let authKey = Data(repeating: 0x42, count: 32).base64EncodedString()

    /// Account, device, a push and a pull, checked at each step; returns the device's token.
    @discardableResult
    static func roundTrip(_ server: ServerProcess, ciphertext: Data) async throws -> String {
        let account = UUID().uuidString.lowercased()
        #expect(try await server.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": authKey]).status == 201)
        #expect(try await server.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": authKey]).status == 409)
        let enrolled = try await server.request(
            "POST", "/v1/accounts/\(account)/devices", json: ["authKey": authKey, "name": "laptop"])
        #expect(enrolled.status == 201)
        let token = try #require(json(enrolled.body)["token"] as? String)
        let entry = UUID().uuidString
        let change: [String: Any] = [
            "id": entry, "basedOn": 0, "deleted": false, "keyVersion": 1,
            "nonce": Data(repeating: 7, count: 12).base64EncodedString(), "ciphertext": ciphertext.base64EncodedString(),
        ]
        let pushed = try await server.request("POST", "/v1/entries", json: ["changes": [change]], token: token)
        #expect(pushed.status == 200)
        #expect((json(pushed.body)["results"] as? [[String: Any]])?.first?["sequence"] as? Int == 1)
        let pulled = try await server.request("GET", "/v1/entries?after=0", token: token)
        #expect(pulled.status == 200)
        let entries = json(pulled.body)["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["ciphertext"] as? String } == [ciphertext.base64EncodedString()])
        let unauthorized = try await server.request("GET", "/v1/entries", token: Data(repeating: 1, count: 32).base64EncodedString())
        #expect(unauthorized.status == 401 && unauthorized.contentType == "application/problem+json")
        return token
    }

    /// Bytes as PostgreSQL's dump writes a bytea.
    static func hex(_ base64: String) -> String {
        (Data(base64Encoded: base64) ?? Data()).map { String(format: "%02x", $0) }.joined()
    }

    @Test("DEV: health, the document, a sync round trip in memory, then a graceful stop on SIGTERM")
    func devServer() async throws {
        let server = try ServerProcess(["--phase", "dev"])
        let health = try await server.request("GET", "/v1/health")
        #expect(health.status == 200 && Self.json(health.body)["status"] as? String == "ok")
        let document = try await server.request("GET", "/v1/openapi.yaml")
        #expect(String(decoding: document.body, as: UTF8.self).hasPrefix("openapi: 3.1.0"))
        try await Self.roundTrip(server, ciphertext: Data("opaque bytes".utf8))
        #expect(server.stop() == .exited(0))
    }

    @Test("REAL without a database is a one-line error, before anything listens")
    func realNeedsDatabase() throws {
        let result = try ProcessRunner.run(ServerProcess.binary, ["--phase", "real", "--port", "0"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status != 0)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.contains("needs a PostgreSQL database"))
    }
}

/// The server on PostgreSQL (the cluster `make test` starts): the same round trip, and what the
/// database and the logs hold afterwards.
@Suite(
    "tokens-server on PostgreSQL",
    .enabled(if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
             "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"))
struct ServerOnPostgresTests {
    static var databaseURL: String {
        let env = ProcessInfo.processInfo.environment
        let password = env["PGPASSWORD"].map { ":\($0)" } ?? ""
        return "postgres://\(env["PGUSER"] ?? "postgres")\(password)@\(env["PGHOST"] ?? "localhost"):\(env["PGPORT"] ?? "5432")/\(env["PGDATABASE"] ?? "postgres")?sslmode=disable"
    }

    @Test("ALPHA: migrations on start, a round trip; neither the database nor the trace log holds the auth key or the token")
    func secretsStayOut() async throws {
        #expect(ProcessInfo.processInfo.environment["PGHOST"] != nil, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        let server = try ServerProcess(["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": Self.databaseURL])
        let token = try await ServerProcessTests.roundTrip(server, ciphertext: Data("opaque bytes".utf8))
        #expect(server.stop() == .exited(0))
        let dump = try ProcessRunner.run("pg_dump", ["--data-only", "--inserts"], environment: ProcessInfo.processInfo.environment)
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(dump.stdout.contains("INSERT INTO public.entry"), "the push should be in the dump")
        for secret in [ServerProcessTests.authKey, token] {
            #expect(!dump.stdout.contains(secret) && !dump.stdout.contains(ServerProcessTests.hex(secret)))
            #expect(!server.errorLog.contains(secret) && !server.errorLog.contains(ServerProcessTests.hex(secret)))
        }
        #expect(!server.errorLog.contains(ProcessInfo.processInfo.environment["PGPASSWORD"] ?? "no password set"))
        // The plaintext check (entries encrypted by the client, whose plaintext the test knows)
        // comes with the client's encryption (issue 17): today the test pushes opaque bytes.
    }
}
