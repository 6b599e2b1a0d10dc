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

    public convenience init(port: Int) throws {
        try self.init(port: port, primary: nil)
    }

    /// A hot standby of `primary` on PostgreSQL's streaming replication (a base backup with
    /// `standby.signal`); its name, for `synchronous_standby_names`, is its cluster's: `standby`.
    public convenience init(port: Int, standbyOf primary: OwnPostgres) throws {
        try self.init(port: port, primary: primary)
    }

    private init(port: Int, primary: OwnPostgres?) throws {
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
        let data = directory.appendingPathComponent("data").path
        if let primary {
            try run(
                "pg_basebackup",
                ["-h", "127.0.0.1", "-p", "\(primary.port)", "-U", "postgres", "-D", data, "-R", "-X", "stream", "--no-sync"])
        } else {
            try run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync"])
        }
        try start()
    }

    /// Starts the server and waits until it accepts connections.
    public func start() throws {
        try run(
            "pg_ctl",
            [
                "-D", directory.appendingPathComponent("data").path, "-l", directory.appendingPathComponent("log").path,
                "-o", "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c cluster_name=\(name)", "-w", "-t",
                "60", "start",
            ])
    }

    /// The cluster's name: a standby reports it to its primary as its application name.
    private var name: String {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/standby.signal").path) ? "standby" : "primary"
    }

    /// Kills the whole cluster at once with SIGKILL (its postmaster leads the process group
    /// pg_ctl started, with every backend in it), as a machine that dies would; waits at most
    /// 60 s until the postmaster is gone.
    public func kill() throws {
        let pidFile = directory.appendingPathComponent("data/postmaster.pid").path
        let text = (try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""
        guard let pid = text.split(separator: "\n").first.flatMap({ pid_t($0) }), pid > 1 else {
            throw OwnPostgresError(message: "no postmaster.pid in \(directory.path)")
        }
        Foundation.kill(-pid, SIGKILL)
        // Gone, or a zombie its new parent has not reaped yet.
        for _ in 0..<600 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), !stat.contains(") Z ") else { return }
            usleep(100_000)
        }
    }

    /// Promotes a standby to primary and waits until it takes writes.
    public func promote() throws {
        try run("pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-w", "-t", "60", "promote"])
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
