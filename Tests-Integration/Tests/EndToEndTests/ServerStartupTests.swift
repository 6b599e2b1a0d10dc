import Foundation
import IntegrationTestSupport
import ProcessKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `tokens-server --phase real` with a database it cannot use, as a new operator meets it: one
/// line naming the cause and a non-zero exit (never the pool's retries for a minute), and
/// SIGTERM honoured at once while it waits for the database.
@Suite(
    "tokens-server start-up against a database it cannot use",
    .enabled(
        if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
        "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"))
struct ServerStartupTests {
    /// Runs the server on `url` until it exits (a hang fails after 60 s).
    static func start(_ url: String, logLevel: String = "error") throws -> ProcessResult {
        try ProcessRunner.run(
            ServerProcess.binary, ["--phase", "real", "--port", "0", "--log-level", logLevel],
            environment: ["PATH": "/usr/bin:/bin", "TOKENS_SERVER_DATABASE_URL": url], timeout: 60)
    }

    /// The cluster's URL with `part` replaced.
    static func url(replacing part: String, with replacement: String) -> String {
        TestDatabase.clusterURL.replacingOccurrences(of: part, with: replacement)
    }

    /// A loopback port where nothing listens (bound, then closed).
    static func freePort() throws -> Int {
        let listener = try SilentListener()
        let port = listener.port
        listener.close()
        return port
    }

    @Test("a wrong password, a missing database, a port where nothing listens: one line each, the cause named, a non-zero exit")
    func oneLineEach() throws {
        #expect(ProcessInfo.processInfo.environment["PGHOST"] != nil, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        let env = ProcessInfo.processInfo.environment
        let user = env["PGUSER"] ?? "postgres"
        let host = env["PGHOST"] ?? "localhost"
        let clusterPort = env["PGPORT"] ?? "5432"
        let password = env["PGPASSWORD"].map { ":\($0)" } ?? ""
        let port = try Self.freePort()
        let cases = [
            (
                Self.url(replacing: "\(user)\(password)@", with: "\(user):not-the-password@"),
                "the database refused the password for user \(user)"
            ),
            (
                Self.url(replacing: "/\(env["PGDATABASE"] ?? "postgres")?", with: "/tokens_no_such_database?"),
                "the database tokens_no_such_database does not exist (create it: createdb -O OWNER tokens_no_such_database)"
            ),
            (
                Self.url(replacing: "@\(host):\(clusterPort)/", with: "@127.0.0.1:\(port)/"),
                "nothing answers at 127.0.0.1:\(port) (is PostgreSQL running there?)"
            ),
        ]
        for (url, cause) in cases {
            let result = try Self.start(url)
            #expect(result.status != 0, "\(result.stderr)")
            #expect(result.errorLines == ["tokens-server: \(cause)"], "\(result.stderr)")
            #expect(!result.stderr.contains("not-the-password"))
        }
        // At the default level too: the cause, and no line of the pool's retries.
        let result = try Self.start(cases[0].0, logLevel: "info")
        #expect(result.status != 0)
        #expect(result.errorLines.last.map(String.init) == "tokens-server: \(cases[0].1)", "\(result.stderr)")
        #expect(!result.stderr.contains("PSQLError") && !result.stderr.contains("ConnectionPoolError"), "\(result.stderr)")
    }

    @Test("a database the role does not own: one line saying the role may not create the tables, and how to fix it")
    func databaseNotOwned() throws {
        let env = ProcessInfo.processInfo.environment
        let role = "tokens_guest_\(UUID().uuidString.prefix(8).lowercased())"
        let made = try ProcessRunner.run(
            "psql", ["-v", "ON_ERROR_STOP=1", "-c", "CREATE ROLE \(role) LOGIN PASSWORD 'guest-password'"], environment: env)
        try #require(made.status == 0, "\(made.stderr)")
        defer { _ = try? ProcessRunner.run("psql", ["-c", "DROP ROLE IF EXISTS \(role)"], environment: env) }
        try TestDatabase.with(prefix: "tokens_notowned") { _, url in
            let user = env["PGUSER"] ?? "postgres"
            let password = env["PGPASSWORD"].map { ":\($0)" } ?? ""
            let result = try Self.start(url.replacingOccurrences(of: "//\(user)\(password)@", with: "//\(role):guest-password@"))
            #expect(result.status != 0)
            #expect(result.errorLines.count == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("tokens-server: the database role may not create the server's tables ("), "\(result.stderr)")
            #expect(result.stderr.contains("createdb -O ROLE DATABASE") && !result.stderr.contains("guest-password"), "\(result.stderr)")
        }
    }

    @Test(
        "a database that accepts the connection and never answers: SIGHUP ends nothing, SIGTERM ends the wait at once; left alone, a line after 10 s"
    )
    func silentDatabase() throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let url = Self.url(replacing: "@\(ProcessInfo.processInfo.environment["PGHOST"] ?? "localhost"):", with: "@127.0.0.1:")
            .replacingOccurrences(of: ":\(ProcessInfo.processInfo.environment["PGPORT"] ?? "5432")/", with: ":\(listener.port)/")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("startup-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let errors = folder.appendingPathComponent("err").path
        let server = try ChildProcess(
            executable: ServerProcess.binary, arguments: ["--phase", "real", "--port", "0", "--log-level", "info"],
            environment: ["PATH": "/usr/bin:/bin", "TOKENS_SERVER_DATABASE_URL": url], output: folder.appendingPathComponent("out").path,
            error: errors)
        defer {
            server.send(SIGKILL)
            server.wait()
        }
        // Waits (at most a minute, however slow the machine) until it is checking the database.
        var log = ""
        for _ in 0..<600 where !log.contains("checking the database") {
            usleep(100_000)
            log = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        }
        #expect(log.contains("checking the database"), "\(log)")
        // A SIGHUP meanwhile (a reload sent too early) has nothing to reload yet: it ends nothing.
        server.send(SIGHUP)
        usleep(200_000)
        #expect(server.isRunning, "a SIGHUP during start-up ended the server")
        server.send(SIGTERM)
        #expect(server.wait() == .signalled(SIGTERM))
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(stderr.contains("tokens-server: stopped during start-up") && !stderr.contains("did not answer"), "\(stderr)")

        let alone = try Self.start(url)
        #expect(alone.status != 0)
        let line = "tokens-server: the database at 127.0.0.1:\(listener.port) did not answer within 10 s"
        #expect(alone.errorLines == [Substring(line)], "\(alone.stderr)")
    }
}

/// A loopback TCP socket that listens and never reads or writes: the kernel completes each
/// connection, and nothing answers on it.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 16) == 0 }
        }
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard fd >= 0, bound, named else {
            if fd >= 0 { _ = Glibc.close(fd) }
            throw POSIXError(.EADDRNOTAVAIL)
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}
