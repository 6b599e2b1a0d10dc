import Foundation
import GRDBSQLite

/// A connection to the vault file through SQLite's C API, for reading: what a command that only
/// reads needs, without GRDB's set-up (its functions, collations, authorizer, pragmas and
/// dispatch queue cost more than the reads themselves). Writes stay with GRDB.
///
/// Not thread-safe: `UnlockedVault` holds it behind a mutex.
final class SQLiteReadConnection: VaultQuerying {
    private var handle: OpaquePointer?
    /// Statements already prepared, by their SQL, reset after each use: a command reads the
    /// header and its key slots, and begins and commits a read transaction, several times, and
    /// SQLite compiles a statement anew at each prepare.
    private var prepared: [String: OpaquePointer] = [:]
    /// How many statements are kept at most (SQL built with values in it is not worth keeping).
    private static let preparedLimit = 16

    /// Opens the existing file at `path` (never creates one), waiting up to `busyTimeout`
    /// seconds for another process's write.
    init(path: String, busyTimeout: Double) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteReadError(code: code, handle: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 0)
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
    }

    deinit {
        finalizeStatements()
        sqlite3_close_v2(handle)
    }

    /// Reads the file's pages through a mapping of it from now on, not one pread each (at 10 000
    /// accounts the index's sealed part alone spans 35 overflow pages). SQLite maps only what
    /// its own locks guard: a writer that shrinks the file waits for this reader's lock. Best
    /// run inside the first read transaction: the pragma reads the schema, a lock of its own
    /// outside one.
    func readThroughMapping() throws {
        try execute("PRAGMA mmap_size = \(256 << 20)")
    }

    /// Closes the connection (in a vault still in WAL mode, SQLite removes the -wal and -shm files
    /// if it was the last one).
    func close() {
        finalizeStatements()
        sqlite3_close_v2(handle)
        handle = nil
    }

    private func finalizeStatements() {
        for statement in prepared.values { sqlite3_finalize(statement) }
        prepared = [:]
    }

    /// Runs `sql`, ignoring any rows.
    func execute(_ sql: String) throws {
        try each(sql) { _ in }
    }

    /// Runs `body` in one read transaction: everything it reads is from one state of the file.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Each row `sql` returns, mapped.
    func rows<T>(_ sql: String, _ map: (SQLiteReadRow) throws -> T) throws -> [T] {
        var result: [T] = []
        try each(sql) { row in result.append(try map(row)) }
        return result
    }

    /// Steps through the rows of `sql`, a statement without parameters.
    private func each(_ sql: String, _ body: (SQLiteReadRow) throws -> Void) throws {
        guard let handle else { throw SQLiteReadError(code: SQLITE_MISUSE, message: "the connection is closed") }
        // Taken out while it runs, so that the same SQL run inside `body` prepares its own.
        let statement = try prepared.removeValue(forKey: sql) ?? prepare(sql, on: handle)
        defer {
            sqlite3_reset(statement)
            if prepared[sql] == nil && prepared.count < Self.preparedLimit {
                prepared[sql] = statement
            } else {
                sqlite3_finalize(statement)
            }
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw SQLiteReadError(code: code, handle: handle) }
            try body(SQLiteReadRow(statement: statement))
        }
    }

    private func prepare(_ sql: String, on handle: OpaquePointer) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteReadError(code: code, handle: handle) }
        return statement
    }
}

/// The current row of a statement being stepped, read by position, each value of the type
/// asked or an error (the one conversion: a text read as a blob gives its bytes, as in GRDB).
struct SQLiteReadRow: VaultRow {
    fileprivate let statement: OpaquePointer

    var count: Int { Int(sqlite3_column_count(statement)) }

    private func type(_ column: Int) -> Int32 { sqlite3_column_type(statement, Int32(column)) }

    func integer(_ column: Int) throws -> Int {
        guard type(column) == SQLITE_INTEGER else { throw VaultRowError(column: column) }
        return Int(sqlite3_column_int64(statement, Int32(column)))
    }

    func real(_ column: Int) throws -> Double {
        guard type(column) == SQLITE_FLOAT || type(column) == SQLITE_INTEGER else { throw VaultRowError(column: column) }
        return sqlite3_column_double(statement, Int32(column))
    }

    func text(_ column: Int) throws -> String {
        guard type(column) == SQLITE_TEXT, let bytes = sqlite3_column_text(statement, Int32(column)) else {
            throw VaultRowError(column: column)
        }
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int) throws -> String? {
        type(column) == SQLITE_NULL ? nil : try text(column)
    }

    /// A blob's bytes as SQLite holds them, valid while the row is (no copy).
    func withBlob<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        guard type(column) == SQLITE_BLOB else { throw VaultRowError(column: column) }
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        return try body(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, Int32(column)), count: count))
    }

    /// A blob, or a text's bytes (as GRDB reads one).
    func blob(_ column: Int) throws -> Data {
        guard type(column) == SQLITE_BLOB || type(column) == SQLITE_TEXT else { throw VaultRowError(column: column) }
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        guard count > 0, let bytes = sqlite3_column_blob(statement, Int32(column)) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

/// An error SQLite reported on a `SQLiteReadConnection`, with its primary result code.
struct SQLiteReadError: Error {
    let code: Int32
    let message: String

    init(code: Int32, message: String) {
        self.code = code & 0xff
        self.message = message
    }

    init(code: Int32, handle: OpaquePointer?) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: message)
    }
}

extension SQLiteReadConnection {
    /// SQLite's count of commits by other connections, as this connection sees it.
    func dataVersion() throws -> Int64 {
        Int64(try rows("PRAGMA data_version") { try $0.integer(0) }.first ?? 0)
    }
}
