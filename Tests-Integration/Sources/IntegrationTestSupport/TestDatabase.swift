import Foundation
import ProcessKit

/// PostgreSQL databases on the cluster `make test` starts (pg_virtualenv exports PGHOST, PGPORT,
/// PGUSER, PGPASSWORD and PGDATABASE): a test that runs `tokens-server` on one of its own sees
/// no other test's accounts, entries or enrolment counts.
public enum TestDatabase {
    /// The cluster's default database, as `tokens-server` reads a database URL.
    public static var clusterURL: String {
        let env = ProcessInfo.processInfo.environment
        let password = env["PGPASSWORD"].map { ":\($0)" } ?? ""
        return
            "postgres://\(env["PGUSER"] ?? "postgres")\(password)@\(env["PGHOST"] ?? "localhost"):\(env["PGPORT"] ?? "5432")/\(env["PGDATABASE"] ?? "postgres")?sslmode=disable"
    }

    /// Creates a database named `prefix` and 8 random characters, runs `body` with its name and
    /// URL, and drops it afterwards whatever happens.
    public static func with<T>(prefix: String, _ body: (_ name: String, _ url: String) throws -> T) throws -> T {
        let name = try create(prefix)
        defer { drop(name) }
        return try body(name, url(of: name))
    }

    /// `with`, for an async body.
    public static func with<T>(prefix: String, _ body: (_ name: String, _ url: String) async throws -> T) async throws -> T {
        let name = try create(prefix)
        defer { drop(name) }
        return try await body(name, url(of: name))
    }

    private static func url(of name: String) -> String {
        clusterURL.replacingOccurrences(of: "/\(ProcessInfo.processInfo.environment["PGDATABASE"] ?? "postgres")?", with: "/\(name)?")
    }

    /// Creates a database named `prefix` and 8 random characters: its name and URL. The caller
    /// drops it (`drop`), for a body that cannot run inside `with` (one that leaves the
    /// cooperative pool for the blocking steps).
    public static func create(prefix: String) throws -> (name: String, url: String) {
        let name = try create(prefix)
        return (name, url(of: name))
    }

    private static func create(_ prefix: String) throws -> String {
        let name = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        let made = try ProcessRunner.run("createdb", [name], environment: ProcessInfo.processInfo.environment)
        guard made.status == 0 else { throw TestDatabaseError(message: made.stderr) }
        return name
    }

    /// Drops database `name` if it is there.
    public static func drop(_ name: String) {
        _ = try? ProcessRunner.run("dropdb", ["--if-exists", name], environment: ProcessInfo.processInfo.environment)
    }
}

/// createdb failed; what it said.
public struct TestDatabaseError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "createdb failed: \(message)" }
}
