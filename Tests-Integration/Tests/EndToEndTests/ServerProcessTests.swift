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

    /// A new account with one device, checked at each step; the device's token.
    static func enrolledDevice(_ server: ServerProcess) async throws -> String {
        let account = UUID().uuidString.lowercased()
        #expect(try await server.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": authKey]).status == 201)
        #expect(try await server.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": authKey]).status == 409)
        let enrolled = try await server.request(
            "POST", "/v1/accounts/\(account)/devices", json: ["authKey": authKey, "name": "laptop"])
        #expect(enrolled.status == 201)
        return try #require(json(enrolled.body)["token"] as? String)
    }

    /// A push body of one new entry.
    static func newEntry(_ ciphertext: Data) -> [String: Any] {
        let change: [String: Any] = [
            "id": UUID().uuidString, "basedOn": 0, "deleted": false, "keyVersion": 1,
            "nonce": Data(repeating: 7, count: 12).base64EncodedString(), "ciphertext": ciphertext.base64EncodedString(),
        ]
        return ["changes": [change]]
    }

    /// Account, device, a push and a pull, checked at each step; returns the device's token.
    @discardableResult
    static func roundTrip(_ server: ServerProcess, ciphertext: Data) async throws -> String {
        let token = try await enrolledDevice(server)
        let pushed = try await server.request("POST", "/v1/entries", json: newEntry(ciphertext), token: token)
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

    @Test("DEV: a waiting pull (long-poll) is answered by a push; SIGTERM ends a waiting pull at once with an empty page")
    func longPoll() async throws {
        let server = try ServerProcess(["--phase", "dev"])
        let token = try await Self.enrolledDevice(server)
        let arrived = "path=/v1/entries?after=0&wait=30"
        let woken = Task { try await server.request("GET", "/v1/entries?after=0&wait=30", token: token) }
        #expect(await server.waitForLog(arrived))
        #expect(try await server.request("POST", "/v1/entries", json: Self.newEntry(Data("late".utf8)), token: token).status == 200)
        let answer = try await woken.value
        #expect(answer.status == 200 && (Self.json(answer.body)["entries"] as? [Any])?.count == 1)

        let waiting = Task { try await server.request("GET", "/v1/entries?after=1&wait=30", token: token) }
        #expect(await server.waitForLog("path=/v1/entries?after=1&wait=30"))
        // Well inside the pull's 30 s: only a stop that ends the wait exits by itself in time.
        #expect(server.stop(within: 15) == .exited(0))
        let ended = try await waiting.value
        #expect(ended.status == 200 && (Self.json(ended.body)["entries"] as? [Any])?.isEmpty == true)
    }

    @Test("behind a trusted proxy the enrolment limit counts the forwarded client; from anyone else the header is ignored")
    func trustedProxy() async throws {
        /// Enrols a device into a new account, as `forwarded` says; the status.
        func enrol(_ server: ServerProcess, forwarded: String) async throws -> Int {
            let account = UUID().uuidString.lowercased()
            _ = try await server.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": Self.authKey])
            return try await server.request(
                "POST", "/v1/accounts/\(account)/devices", json: ["authKey": Self.authKey, "name": "n"],
                headers: ["X-Forwarded-For": forwarded]
            ).status
        }
        // Each enrolment needs an account of its own: this test opens more than one address may an hour.
        let manyAccounts = ["TOKENS_SERVER_ACCOUNTS_PER_ADDRESS": "1000"]
        let behindProxy = try ServerProcess(
            ["--phase", "dev"],
            // Behind a proxy the server asks for invitations unless told otherwise; this test opens accounts freely.
            environment: manyAccounts.merging(["TOKENS_SERVER_PROXIES": "127.0.0.1", "TOKENS_SERVER_SIGNUP": "open"]) { $1 })
        var statuses: [Int] = []
        for n in 1...31 { statuses.append(try await enrol(behindProxy, forwarded: "192.0.2.\(n)")) }
        #expect(statuses == Array(repeating: 201, count: 31))
        statuses = []
        for _ in 1...31 { statuses.append(try await enrol(behindProxy, forwarded: "198.51.100.7")) }
        #expect(statuses == Array(repeating: 201, count: 30) + [429])
        #expect(behindProxy.stop() == .exited(0))

        let direct = try ServerProcess(["--phase", "dev"], environment: manyAccounts)
        statuses = []
        for n in 1...31 { statuses.append(try await enrol(direct, forwarded: "192.0.2.\(n)")) }
        #expect(statuses == Array(repeating: 201, count: 30) + [429])
        #expect(direct.stop() == .exited(0))
    }

    /// A self-signed certificate for 127.0.0.1 and its key, made by openssl in `folder`.
    /// Runs `body` with a new folder holding two self-signed pairs, removed afterwards.
    static func withTwoCertificates(
        _ body: (_ folder: URL, _ mine: (certificate: String, key: String), _ other: (certificate: String, key: String)) async throws ->
            Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder, try certificate("mine", in: folder), try certificate("other", in: folder))
    }

    static func certificate(_ name: String, in folder: URL) throws -> (certificate: String, key: String) {
        let certificate = folder.appendingPathComponent("\(name).crt").path
        let key = folder.appendingPathComponent("\(name).key").path
        let made = try ProcessRunner.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return (certificate, key)
    }

    @Test(
        "SIGHUP reloads the TLS certificate and key: new connections get the renewed pair; a broken pair is an error line and the old one stays; without TLS, a line, not death"
    )
    func tlsReload() async throws {
        try await Self.withTwoCertificates { _, mine, other in
            let server = try ServerProcess(["--phase", "dev", "--tls-certificate", mine.certificate, "--tls-key", mine.key])
            let health = { (trusting: String) in
                try ProcessRunner.run("curl", ["-sS", "--max-time", "20", "--cacert", trusting, "\(server.baseURL)/v1/health"])
            }
            #expect(try health(mine.certificate).status == 0)
            // A renewed pair in the same files, then SIGHUP: new connections get it.
            for (from, to) in [(other.certificate, mine.certificate), (other.key, mine.key)] {
                try FileManager.default.removeItem(atPath: to)
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
            server.child.send(SIGHUP)
            // Patient: under a full `make test` on a busy machine this test took minutes in all.
            #expect(await server.waitForLog("SIGHUP: TLS certificate reloaded", seconds: 120))
            let renewed = try health(other.certificate)
            #expect(renewed.status == 0, "\(renewed.stderr)")
            // A broken file at the next reload: an error line, and the pair in use stays.
            try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: mine.certificate))
            server.child.send(SIGHUP)
            #expect(await server.waitForLog("SIGHUP: TLS certificate not reloaded, the old one is still served", seconds: 120))
            let kept = try health(other.certificate)
            #expect(kept.status == 0, "\(kept.stderr)")
            #expect(server.stop() == .exited(0))
            // Without TLS, SIGHUP is answered with a line, not by dying.
            let plain = try ServerProcess(["--phase", "dev"])
            plain.child.send(SIGHUP)
            #expect(await plain.waitForLog("SIGHUP: nothing to reload", seconds: 120))
            #expect(try await plain.request("GET", "/v1/health").status == 200)
            #expect(plain.stop() == .exited(0))
        }
    }

    @Test("TLS: a certificate and its key serve HTTPS; a missing file, a folder or another certificate's key is a one-line error")
    func tls() async throws {
        try await Self.withTwoCertificates { folder, mine, other in
            let server = try ServerProcess(["--phase", "dev", "--tls-certificate", mine.certificate, "--tls-key", mine.key])
            #expect(server.baseURL.scheme == "https")
            let health = try ProcessRunner.run(
                "curl", ["-sS", "--max-time", "20", "--cacert", mine.certificate, "\(server.baseURL)/v1/health"])
            #expect(health.status == 0 && Self.json(Data(health.stdout.utf8))["status"] as? String == "ok", "\(health.stderr)")
            let untrusted = try ProcessRunner.run(
                "curl", ["-sS", "--max-time", "20", "--cacert", other.certificate, "\(server.baseURL)/v1/health"])
            #expect(untrusted.status != 0)
            #expect(server.stop() == .exited(0))

            let mistakes = [
                (mine.certificate, folder.appendingPathComponent("missing.key").path, "missing.key does not exist"),
                (folder.path, mine.key, "is a folder"),
                (mine.key, mine.key, "is not a PEM certificate"),
                (mine.certificate, other.key, "is not the key of the certificate"),
            ]
            for (certificate, key, message) in mistakes {
                let result = try ProcessRunner.run(
                    ServerProcess.binary, ["--phase", "dev", "--port", "0", "--tls-certificate", certificate, "--tls-key", key],
                    environment: ["PATH": "/usr/bin:/bin"])
                #expect(result.status != 0 && result.errorLines.count == 1 && result.stderr.contains(message), "\(result.stderr)")
            }
        }
    }

    @Test("REAL without a database is a one-line error, before anything listens")
    func realNeedsDatabase() throws {
        let result = try ProcessRunner.run(
            ServerProcess.binary, ["--phase", "real", "--port", "0"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status != 0)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.contains("needs a PostgreSQL database"))
    }

    @Test(
        "--log-format json: every line one JSON object; at info an access line per request (route template, never an id; status, duration, client) and the audit's (account opened, device enrolled), none with --access-log off"
    )
    func jsonAccessLog() async throws {
        let server = try ServerProcess(
            ["--phase", "dev", "--log-format", "json"], environment: ["TOKENS_LOG_LEVEL": "info"])
        let account = UUID().uuidString.lowercased()
        #expect(try await server.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": Self.authKey]).status == 201)
        let enrolled = try await server.request(
            "POST", "/v1/accounts/\(account)/devices", json: ["authKey": Self.authKey, "name": "laptop"])
        let device = try #require(Self.json(enrolled.body)["deviceId"] as? String)
        #expect(try await server.request("GET", "/v1/entries?after=0").status == 401)
        #expect(await server.waitForLog("\"status\":\"401\""))
        #expect(server.stop() == .exited(0))
        let lines = server.errorLog.split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(!lines.isEmpty && objects.count == lines.count, "\(server.errorLog)")
        #expect(objects.allSatisfy { $0["time"] is String && $0["level"] is String && $0["message"] is String })
        let answered = objects.filter { $0["message"] as? String == "answered" }
        #expect(answered.count == 3)
        #expect(answered.map { $0["route"] as? String } == ["/v1/accounts", "/v1/accounts/{accountId}/devices", "/v1/entries"])
        #expect(answered.map { $0["status"] as? String } == ["201", "201", "401"])
        #expect(answered.allSatisfy { $0["level"] as? String == "info" && $0["client"] as? String == "127.0.0.1" && $0["ms"] is String })
        let audit = objects.filter { ["account opened", "device enrolled"].contains($0["message"] as? String) }
        #expect(audit.map { $0["account"] as? String } == [String(account.prefix(8)), String(account.prefix(8))])
        #expect(audit.last?["device"] as? String == device && audit.allSatisfy { $0["client"] as? String == "127.0.0.1" })
        #expect(!server.errorLog.contains(account), "only the account's prefix in the log")
        #expect(!server.errorLog.contains("laptop") && !server.errorLog.contains(Self.authKey))

        let quiet = try ServerProcess(["--phase", "dev", "--access-log", "off"], environment: ["TOKENS_LOG_LEVEL": "info"])
        #expect(try await quiet.request("GET", "/v1/entries?after=0").status == 401)
        #expect(quiet.stop() == .exited(0))
        #expect(!quiet.errorLog.contains("answered"), "\(quiet.errorLog)")
    }

    @Test("under systemd (a Type=notify unit), READY=1 reaches NOTIFY_SOCKET once the server listens, with where")
    func systemdReady() async throws {
        // /tmp itself: a socket's path must stay under 108 bytes, whatever TMPDIR is.
        let path = "/tmp/tokens-notify-\(UUID().uuidString.prefix(8))"
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        let server = try ServerProcess(["--phase", "dev"], environment: ["NOTIFY_SOCKET": path])
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 30_000) == 1, "no notification within 30 s")
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        let message = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        #expect(message == "READY=1\nSTATUS=listening on http://127.0.0.1:\(server.baseURL.port ?? 0)")
        #expect(server.stop() == .exited(0))
    }

    @Test("an address in use, the API's or the metrics', is one line naming it and the setting that moves it")
    func addressInUse() throws {
        let server = try ServerProcess(["--phase", "dev"])
        let port = try #require(server.baseURL.port)
        let taken = try ProcessRunner.run(
            ServerProcess.binary, ["--phase", "dev", "--host", "127.0.0.1", "--port", "\(port)", "--log-level", "error"],
            environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(taken.status == 1)
        #expect(
            taken.errorLines == [
                "tokens-server: 127.0.0.1:\(port) is already in use (another tokens-server, or another program, listens there); choose another with --port (server.port)"
            ], "\(taken.stderr)")
        let metrics = try ProcessRunner.run(
            ServerProcess.binary,
            ["--phase", "dev", "--host", "127.0.0.1", "--port", "0", "--metrics-port", "\(port)", "--log-level", "critical"],
            environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(metrics.status == 1)
        #expect(
            metrics.errorLines.last
                == "tokens-server: 127.0.0.1:\(port) is already in use (another tokens-server, or another program, listens there); choose another with --metrics-port (server.metrics.port)",
            "\(metrics.stderr)")
        #expect(server.stop() == .exited(0))
    }

    @Test("--version prints the release; the start-up line names it; a misspelled config key is a warning with the nearest key")
    func versionAndUnknownKeys() async throws {
        let version = try ProcessRunner.run(ServerProcess.binary, ["--version"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(version.status == 0 && version.stdout.hasPrefix("tokens-server ") && version.stderr.isEmpty)
        let release = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("tokens-server ".count)
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("server-config-\(UUID()).json")
        try Data(#"{"server": {"pull": {"wait": 5}, "portt": 9000}}"#.utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let server = try ServerProcess(["--phase", "dev", "--config", config.path])
        #expect(await server.waitForLog("unknown config key 'server.portt'"))
        #expect(server.errorLog.contains("did you mean 'server.port'?"))
        #expect(server.errorLog.contains("version=\(release)"))
        #expect(server.stop() == .exited(0))
    }
}

/// The server on PostgreSQL (the cluster `make test` starts): the same round trip, and what the
/// database and the logs hold afterwards.
@Suite(
    "tokens-server on PostgreSQL",
    .enabled(
        if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
        "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"))
struct ServerOnPostgresTests {
    static var databaseURL: String { TestDatabase.clusterURL }

    /// What the test client knows in plain text: an entry as the client would encrypt it.
    static let plaintext =
        "otpauth://totp/ZeroKnowledgeIssuer:alice.zk@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=ZeroKnowledgeIssuer"

    /// `text` encrypted by the test client (openssl's AES-256-CTR under a key the server never
    /// sees; the real client uses AES-GCM: to the server both are opaque bytes).
    static func encrypted(_ text: String) throws -> Data {
        let key = String(repeating: "5a", count: 32)
        let iv = String(repeating: "a5", count: 16)
        let result = try ProcessRunner.run("openssl", ["enc", "-aes-256-ctr", "-K", key, "-iv", iv, "-a", "-A"], input: text)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(Data(base64Encoded: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test(
        "ALPHA: migrations on start, a round trip; neither the database nor the trace log holds the entry's plaintext, the auth key or the token"
    )
    func secretsStayOut() async throws {
        #expect(ProcessInfo.processInfo.environment["PGHOST"] != nil, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        let server = try ServerProcess(["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": Self.databaseURL])
        let ciphertext = try Self.encrypted(Self.plaintext)
        #expect(ciphertext.count == Self.plaintext.utf8.count)
        let token = try await ServerProcessTests.roundTrip(server, ciphertext: ciphertext)
        #expect(server.stop() == .exited(0))
        let dump = try ProcessRunner.run("pg_dump", ["--data-only", "--inserts"], environment: ProcessInfo.processInfo.environment)
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(dump.stdout.contains("INSERT INTO public.entry"), "the push should be in the dump")
        for secret in [ServerProcessTests.authKey, token] {
            #expect(!dump.stdout.contains(secret) && !dump.stdout.contains(ServerProcessTests.hex(secret)))
            #expect(!server.errorLog.contains(secret) && !server.errorLog.contains(ServerProcessTests.hex(secret)))
        }
        #expect(!server.errorLog.contains(ProcessInfo.processInfo.environment["PGPASSWORD"] ?? "no password set"))
        // The ciphertext is stored; none of what it hides is, in any form.
        #expect(dump.stdout.contains(ServerProcessTests.hex(ciphertext.base64EncodedString())))
        for part in [Self.plaintext, "ZeroKnowledgeIssuer", "alice.zk@example.com", "JBSWY3DPEHPK3PXPJBSWY3DP"] {
            for form in [part, Data(part.utf8).base64EncodedString(), ServerProcessTests.hex(Data(part.utf8).base64EncodedString())] {
                #expect(!dump.stdout.contains(form) && !server.errorLog.contains(form), "\(part) leaked")
            }
        }
    }

    @Test(
        "two instances on one database: a pull waiting on one is answered by a push through the other; a device revoked on one is refused by the other at once"
    )
    func longPollAcrossInstances() async throws {
        let environment = ["TOKENS_SERVER_DATABASE_URL": Self.databaseURL]
        let waiter = try ServerProcess(["--phase", "alpha"], environment: environment)
        let pusher = try ServerProcess(["--phase", "alpha"], environment: environment)
        // Each instance listens for the other's changes (PostgreSQL's LISTEN) once it runs.
        #expect(await waiter.waitForLog("listening for changes"))
        #expect(await pusher.waitForLog("listening for changes"))
        let account = UUID().uuidString.lowercased()
        let authKey = ServerProcessTests.authKey
        #expect(try await pusher.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": authKey]).status == 201)
        let laptop = try await pusher.request("POST", "/v1/accounts/\(account)/devices", json: ["authKey": authKey, "name": "laptop"])
        let token = try #require(ServerProcessTests.json(laptop.body)["token"] as? String)
        let waiting = Task { try await waiter.request("GET", "/v1/entries?after=0&wait=30", token: token) }
        #expect(await waiter.waitForLog("path=/v1/entries?after=0&wait=30"))
        #expect(
            try await pusher.request("POST", "/v1/entries", json: ServerProcessTests.newEntry(Data("x".utf8)), token: token).status == 200)
        let answer = try await waiting.value
        #expect(answer.status == 200 && (ServerProcessTests.json(answer.body)["entries"] as? [Any])?.count == 1)
        // A second device, enrolled through the waiter's instance, then revoked through the other.
        let enrolled = try await waiter.request("POST", "/v1/accounts/\(account)/devices", json: ["authKey": authKey, "name": "desktop"])
        let desktop = ServerProcessTests.json(enrolled.body)
        let desktopToken = try #require(desktop["token"] as? String)
        let desktopID = try #require(desktop["deviceId"] as? String)
        #expect(try await pusher.request("GET", "/v1/entries?after=0", token: desktopToken).status == 200)
        #expect(try await pusher.request("DELETE", "/v1/devices/\(desktopID)", token: token).status == 204)
        let refused = try await waiter.request("GET", "/v1/entries?after=0", token: desktopToken)
        #expect(refused.status == 401 && String(decoding: refused.body, as: UTF8.self).contains("device-revoked"))
        #expect(waiter.stop() == .exited(0) && pusher.stop() == .exited(0))
    }
}
