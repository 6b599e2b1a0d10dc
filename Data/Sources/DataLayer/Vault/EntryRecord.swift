import Foundation
import GRDB

/// One row of the `entry` table as stored: everything the manifest covers.
struct EntryRecord: Sendable, Equatable {
    let id: String
    let sortOrder: Int
    let createdAt: Double
    let updatedAt: Double
    /// Counts the writes of this entry (format 2; 0 in a format-1 row being migrated).
    let version: Int
    let nonce: Data
    let ciphertext: Data
}

extension EntryRecord {
    /// A row of `SELECT *`: the table's columns in the order the migrations made them (the
    /// schema check holds the file to it), `version` last and absent in format 1. By position:
    /// GRDB finds a column by name by lowercasing, a tenth of reading 30 entries.
    init(row: some VaultRow) throws {
        id = try row.text(0)
        sortOrder = try row.integer(1)
        createdAt = try row.real(2)
        updatedAt = try row.real(3)
        nonce = try row.blob(4)
        ciphertext = try row.blob(5)
        version = row.count > 6 ? try row.integer(6) : 0
    }
}

extension EntryRecord {
    /// Every field, length-prefixed, as the manifest (formats 2 and 3) and the index's row
    /// digests (format 4) cover them.
    func appendFields(to bytes: inout [UInt8]) {
        CanonicalEncoding.appendString(id, to: &bytes)
        for value in [sortOrder, Int(truncatingIfNeeded: createdAt.bitPattern), Int(truncatingIfNeeded: updatedAt.bitPattern), version] {
            CanonicalEncoding.appendInteger(value, to: &bytes)
        }
        CanonicalEncoding.appendBytes(nonce, to: &bytes)
        CanonicalEncoding.appendBytes(ciphertext, to: &bytes)
    }
}

/// Writes to the vault's tables that must change exactly one row: a write SQLite reports as
/// a no-op (a planted trigger's RAISE(IGNORE), say) fails the transaction instead of passing
/// for done.
enum VaultRows {
    static func execute(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws {
        // Compiled once per connection: a join of 10 000 accounts writes 10 000 sync rows, and
        // compiling the statement for each was a tenth of it.
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
        guard db.changesCount == 1 else { throw VaultError.modified(.writeIgnored) }
    }

    /// `values` as a list of SQL text literals, quoted as SQL quotes them (the read path's
    /// statements take no parameters), for `IN (…)`.
    static func literals(_ values: some Sequence<String>) -> String {
        var list = ""
        for value in values {
            if !list.isEmpty { list += ", " }
            list += "'" + (value.contains("'") ? value.replacingOccurrences(of: "'", with: "''") : value) + "'"
        }
        return list
    }

}
