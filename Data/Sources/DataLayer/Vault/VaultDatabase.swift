import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening the vault's SQLite file: WAL, a busy timeout, full syncs, and SQLite's
/// errors turned into VaultError.
enum VaultDatabase {
    /// The first bytes of every SQLite 3 file.
    static let sqliteMagic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    static func configuration() -> Configuration {
        var configuration = Configuration()
        // Wait for another process's write instead of failing with "database is locked".
        configuration.busyMode = .timeout(30)
        configuration.label = "tokens-vault"
        // WAL is set once, when the vault is created, and persists in the file. (GRDB's own WAL
        // set-up writes to the database at every open; unlocking must write nothing.) A single
        // connection: when it closes, SQLite checkpoints and removes the -wal and -shm files.
        configuration.journalMode = .default
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        return configuration
    }

    /// The file's first 100 bytes (fewer if it is shorter), read with POSIX rather than
    /// FileHandle: this runs before every command's first code.
    private static func firstBytes(_ path: String) throws -> [UInt8] {
        #if canImport(Glibc)
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #else
            let descriptor = Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #endif
        guard descriptor >= 0 else {
            throw errno == ENOENT ? VaultError.notInitialized(path: path) : VaultError.damaged(path: path, reason: "cannot be read")
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 100)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return Array(bytes.prefix(max(0, count)))
    }

    /// Opens an existing vault file after checking it looks like one; writes nothing.
    static func open(path: String) throws -> DatabaseQueue {
        let prefix = try firstBytes(path)
        guard prefix.starts(with: sqliteMagic) else {
            throw prefix.count < sqliteMagic.count
                ? VaultError.damaged(path: path, reason: "the file is empty or truncated")
                : VaultError.notAVault(path: path)
        }
        guard prefix.count == 100 else { throw VaultError.damaged(path: path, reason: "the file is truncated") }
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration())
        } catch let error as DatabaseError {
            throw map(error, path: path)
        }
        do {
            let check = try database.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
            guard check == "ok" else { throw VaultError.damaged(path: path, reason: "the file is truncated or corrupt") }
            return database
        } catch {
            try? database.close()
            throw (error as? DatabaseError).map { map($0, path: path) } ?? error
        }
    }

    /// SQLite's errors as VaultError.
    static func map(_ error: DatabaseError, path: String) -> VaultError {
        switch error.resultCode {
        case .SQLITE_NOTADB: .notAVault(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy
        case .SQLITE_CORRUPT: .damaged(path: path, reason: "the file is truncated or corrupt")
        default: .damaged(path: path, reason: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
    }

    /// Runs `body`, turning SQLite errors into VaultError.
    static func guarding<T>(path: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError { throw map(error, path: path) }
    }
}

