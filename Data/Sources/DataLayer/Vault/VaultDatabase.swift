import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening the vault's SQLite file: a busy timeout, full syncs, and SQLite's errors turned into
/// VaultError.
enum VaultDatabase {
    /// The first bytes of every SQLite 3 file.
    static let sqliteMagic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// How long a connection waits for another process's write instead of failing with
    /// "database is locked", in seconds.
    static let busyTimeout = 30.0

    /// Sorts (the entries in the user's order) and temporary tables in memory: 10 000 entries
    /// sorted went through a temporary file of 2.6 MB, written and read back at each full read.
    static let inMemoryTemporaries = "PRAGMA temp_store = MEMORY"

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "tokens-vault"
        // The journal mode is set once, when the vault is created, and persists in the file
        // (`VaultJournal`); GRDB's own set-up of a mode writes to the database at every open, and
        // unlocking must write nothing. A single connection: in a vault still in WAL mode, when it
        // closes SQLite checkpoints and removes the -wal and -shm files.
        configuration.journalMode = .default
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: Self.inMemoryTemporaries)
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

    /// Throws unless the file at `path` starts as an SQLite file does.
    static func checkFirstBytes(_ path: String) throws {
        let prefix = try firstBytes(path)
        guard prefix.starts(with: sqliteMagic) else {
            throw prefix.count < sqliteMagic.count
                ? VaultError.damaged(path: path, reason: "the file is empty or truncated")
                : VaultError.notAVault(path: path)
        }
        guard prefix.count == 100 else { throw VaultError.damaged(path: path, reason: "the file is truncated") }
    }

    /// Opens an existing vault file after checking it looks like one; writes nothing.
    ///
    /// `checkingFirstBytes` is false when this process has the file open already (the read
    /// path's connection): closing any other descriptor of the file would drop every POSIX lock
    /// the process holds on it, the shared lock of that connection included, and another
    /// process closing its last connection would then take this one's WAL for unused and delete it.
    ///
    /// `checkingPages` false leaves SQLite's check of every page (`checkPages`) to the caller:
    /// it reads the whole file, which a command that reads and writes a few rows, each
    /// authenticated, need not pay.
    static func open(path: String, checkingFirstBytes: Bool = true, checkingPages: Bool = true) throws -> DatabaseQueue {
        if checkingFirstBytes { try checkFirstBytes(path) }
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration())
        } catch let error as DatabaseError {
            throw map(error, path: path)
        }
        guard checkingPages else { return database }
        do {
            try checkPages(database, path: path)
            return database
        } catch {
            try? database.close()
            throw error
        }
    }

    /// SQLite's `quick_check` of every page: `damaged` unless the file is whole.
    static func checkPages(_ database: DatabaseQueue, path: String) throws {
        do {
            let check = try database.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
            guard check == "ok" else { throw VaultError.damaged(path: path, reason: "the file is truncated or corrupt") }
        } catch let error as DatabaseError {
            throw map(error, path: path)
        }
    }

    /// SQLite's errors as VaultError.
    static func map(_ error: DatabaseError, path: String) -> VaultError {
        map(code: error.resultCode.primaryResultCode.rawValue, message: error.message, path: path)
    }

    /// The error of SQLite's primary result code `code`, as VaultError.
    static func map(code: Int32, message: String?, path: String) -> VaultError {
        switch code {
        case ResultCode.SQLITE_NOTADB.rawValue: .notAVault(path: path)
        case ResultCode.SQLITE_BUSY.rawValue, ResultCode.SQLITE_LOCKED.rawValue: .busy
        case ResultCode.SQLITE_CORRUPT.rawValue: .damaged(path: path, reason: "the file is truncated or corrupt")
        default: .damaged(path: path, reason: message ?? "SQLite error \(code)")
        }
    }

    /// Runs `body`, turning SQLite's errors (through GRDB or the read path) and values of the
    /// wrong type into VaultError.
    static func guarding<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw map(error, path: path)
        } catch let error as SQLiteReadError {
            throw map(code: error.code, message: error.message, path: path)
        } catch is VaultRowError {
            throw VaultError.damaged(path: path, reason: "a value of the wrong type")
        }
    }
}
