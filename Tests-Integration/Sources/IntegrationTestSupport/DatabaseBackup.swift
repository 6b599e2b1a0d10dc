import Foundation

/// A backup of a test database as an operator takes one (`pg_dump -Fc`), and its restore
/// (`pg_restore --clean --if-exists`, with every server stopped). The file is removed by `remove`.
public struct DatabaseBackup {
    public let database: String
    public let path: String

    /// Dumps `database` of the cluster the environment names.
    public static func take(of database: String) throws -> DatabaseBackup {
        let backup = DatabaseBackup(
            database: database, path: FileManager.default.temporaryDirectory.appendingPathComponent("tokens-backup-\(UUID()).dump").path)
        let dumped = try ProcessRunner.run("pg_dump", ["-Fc", "-f", backup.path], environment: backup.environment)
        guard dumped.status == 0 else { throw TestDatabaseError(message: "pg_dump: \(dumped.stderr)") }
        return backup
    }

    /// Puts the backup back over the database.
    public func restore() throws {
        let restored = try ProcessRunner.run("pg_restore", ["--clean", "--if-exists", "-d", database, path], environment: environment)
        guard restored.status == 0 else { throw TestDatabaseError(message: "pg_restore: \(restored.stderr)") }
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PGDATABASE"] = database
        return environment
    }
}
