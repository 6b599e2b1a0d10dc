import Foundation
import ProcessKit

/// A PostgreSQL cluster of a test's own, on a free loopback port, that the test may stop and
/// start (the shared cluster of `make test` serves every other suite at once and must stay up).
/// Run as root (CI), its commands run as the `postgres` user, as PostgreSQL requires. Bounded:
/// each start and stop waits at most 60 s; the cluster is stopped and removed when released.
public final class OwnPostgres: Sendable {
    public let port: Int
    private let directory: URL
    private let binaries: String

    /// `postgres://…` for `tokens-server`: trust authentication on loopback, no TLS.
    public var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres?sslmode=disable" }

    public init(port: Int) throws {
        self.port = port
        binaries = try Self.binaries()
        // Under /tmp when root: the postgres user cannot enter a private TMPDIR (.ci/run's).
        let parent = getuid() == 0 ? URL(fileURLWithPath: "/tmp") : FileManager.default.temporaryDirectory
        directory = parent.appendingPathComponent("own-postgres-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 {
            _ = try ProcessRunner.run("chown", ["postgres:", directory.path])
            chmod(directory.path, 0o700)
        }
        try run("initdb", ["-D", directory.appendingPathComponent("data").path, "-U", "postgres", "--auth=trust", "--no-sync"])
        try start()
    }

    /// Starts the server and waits until it accepts connections.
    public func start() throws {
        try run(
            "pg_ctl",
            [
                "-D", directory.appendingPathComponent("data").path, "-l", directory.appendingPathComponent("log").path,
                "-o", "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off", "-w", "-t", "60", "start",
            ])
    }

    /// Stops the server (fast: open connections are closed) and waits until it is down.
    public func stop() throws {
        try run("pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "fast", "-w", "-t", "60", "stop"])
    }

    /// Runs one SQL statement as the superuser; what psql printed (unaligned, rows only).
    @discardableResult
    public func sql(_ statement: String) throws -> String {
        let result = try ProcessRunner.run("\(binaries)/psql", [url, "-v", "ON_ERROR_STOP=1", "-Atc", statement], timeout: 90)
        guard result.status == 0 else { throw OwnPostgresError(message: "psql: \(result.stderr)") }
        return result.stdout
    }

    deinit {
        try? stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs one of PostgreSQL's programs (as `postgres` when this process is root).
    private func run(_ program: String, _ arguments: [String]) throws {
        let path = "\(binaries)/\(program)"
        let result =
            getuid() == 0
            ? try ProcessRunner.run("runuser", ["-u", "postgres", "--", path] + arguments, timeout: 90)
            : try ProcessRunner.run(path, arguments, timeout: 90)
        guard result.status == 0 else { throw OwnPostgresError(message: "\(program): \(result.stderr)") }
    }

    /// The newest installed PostgreSQL's programs.
    private static func binaries() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root))?.compactMap(Int.init).sorted() ?? []
        guard let newest = versions.last else { throw OwnPostgresError(message: "no PostgreSQL under \(root)") }
        return "\(root)/\(newest)/bin"
    }
}

/// A PostgreSQL program failed; what it said.
public struct OwnPostgresError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
