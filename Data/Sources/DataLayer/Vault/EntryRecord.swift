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

    /// Every entry, in the user's order.
    static func fetchAll(_ db: Database) throws -> [EntryRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM entry ORDER BY sort_order, created_at").map(EntryRecord.init)
    }

    static func fetchOne(_ db: Database, id: String) throws -> EntryRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id]).map(EntryRecord.init)
    }
}

extension EntryRecord {
    init(row: Row) {
        id = row["id"]
        sortOrder = row["sort_order"]
        createdAt = row["created_at"]
        updatedAt = row["updated_at"]
        version = row.hasColumn("version") ? row["version"] : 0
        nonce = row["nonce"]
        ciphertext = row["ciphertext"]
    }
}

/// Writes to the vault's tables that must change exactly one row: a write SQLite reports as
/// a no-op (a planted trigger's RAISE(IGNORE), say) fails the transaction instead of passing
/// for done.
enum VaultRows {
    static func execute(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws {
        try db.execute(sql: sql, arguments: arguments)
        guard db.changesCount == 1 else { throw VaultError.modified(.writeIgnored) }
    }

    /// Stores a new ciphertext for entry `record.id`, only if it is still at `record.version`.
    static func reseal(
        _ record: EntryRecord, updatedAt: Double, sealed: (nonce: Data, ciphertext: Data), _ db: Database
    ) throws {
        try execute(
            db, "UPDATE entry SET updated_at = ?, version = ?, nonce = ?, ciphertext = ? WHERE id = ? AND version = ?",
            [updatedAt, record.version + 1, sealed.nonce, sealed.ciphertext, record.id, record.version])
    }
}
