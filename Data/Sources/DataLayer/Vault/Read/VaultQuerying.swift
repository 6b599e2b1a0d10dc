import Foundation
import GRDB

/// What reading the vault's rows needs from a connection: GRDB's `Database` (inside the
/// transactions `UnlockedVault` writes in) or a `SQLiteReadConnection` (the read path), so that
/// each table's rows are selected and decoded by one piece of code whichever reads them.
protocol VaultQuerying {
    associatedtype QueryRow: VaultRow
    /// Each row `sql` (without parameters) returns, mapped.
    func rows<T>(_ sql: String, _ map: (QueryRow) throws -> T) throws -> [T]
}

/// A row read by position, each value of the type asked or `VaultRowError` (a text may be read
/// as a blob: its bytes, as GRDB reads it).
protocol VaultRow {
    var count: Int { get }
    func integer(_ column: Int) throws -> Int
    func real(_ column: Int) throws -> Double
    func text(_ column: Int) throws -> String
    func optionalText(_ column: Int) throws -> String?
    func blob(_ column: Int) throws -> Data
    /// `body` with a blob's bytes where they lie, if the row can lend them (else a copy).
    func withBlob<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T
}

extension VaultRow {
    func withBlob<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        try blob(column).withUnsafeBytes(body)
    }
}

/// A value of another type than its column should hold: the file was changed outside Tokens.
struct VaultRowError: Error {
    let column: Int
}

extension Database: VaultQuerying {
    func rows<T>(_ sql: String, _ map: (Row) throws -> T) throws -> [T] {
        let cursor = try Row.fetchCursor(self, sql: sql)
        var result: [T] = []
        while let row = try cursor.next() { result.append(try map(row)) }
        return result
    }
}

extension Row: VaultRow {
    private func value(_ column: Int) -> DatabaseValue.Storage {
        (self[column] as DatabaseValue).storage
    }

    func integer(_ column: Int) throws -> Int {
        guard case .int64(let value) = value(column) else { throw VaultRowError(column: column) }
        return Int(value)
    }

    func real(_ column: Int) throws -> Double {
        switch value(column) {
        case .double(let value): return value
        case .int64(let value): return Double(value)
        default: throw VaultRowError(column: column)
        }
    }

    func text(_ column: Int) throws -> String {
        guard case .string(let value) = value(column) else { throw VaultRowError(column: column) }
        return value
    }

    func optionalText(_ column: Int) throws -> String? {
        if case .null = value(column) { return nil }
        return try text(column)
    }

    func blob(_ column: Int) throws -> Data {
        switch value(column) {
        case .blob(let value): return value
        case .string(let text): return CanonicalEncoding.utf8(text)
        default: throw VaultRowError(column: column)
        }
    }
}
