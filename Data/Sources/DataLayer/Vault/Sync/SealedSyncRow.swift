import Foundation
import GRDB

/// One stored row of the vault's sync state (format 3), sealed like an entry: AES-256-GCM under
/// the entries key, its associated data binding the vault, the table, the row's id and version,
/// so a row moved to another id or replaced by an older copy fails to open (and the manifest
/// notices it first).
struct SealedSyncRow: Sendable, Equatable {
    enum Table: String, Sendable {
        /// This machine's membership: one row, id "1".
        case account = "sync_account"
        /// One row per entry id.
        case entry = "sync_entry"
    }

    let table: Table
    let id: String
    let version: Int
    let nonce: Data
    let ciphertext: Data

    static func fetchAll(_ db: some VaultQuerying) throws -> [SealedSyncRow] {
        try fetchAll(db, .account) + fetchAll(db, .entry)
    }

    static func fetchAll(_ db: some VaultQuerying, _ table: Table) throws -> [SealedSyncRow] {
        try db.rows("SELECT id, version, nonce, ciphertext FROM \(table.rawValue) ORDER BY id") { row in
            // By position, as selected (GRDB finds a column by name by lowercasing).
            let id = table == .account ? String(try row.integer(0)) : try row.text(0)
            return SealedSyncRow(
                table: table, id: id, version: try row.integer(1), nonce: try row.blob(2), ciphertext: try row.blob(3))
        }
    }

    /// The entry rows of `ids` that exist, by id.
    static func fetchEntries(_ db: some VaultQuerying, ids: some Collection<UUID>) throws -> [SealedSyncRow] {
        guard !ids.isEmpty else { return [] }
        let list = VaultRows.literals(ids.lazy.map(\.text))
        return try db.rows("SELECT id, version, nonce, ciphertext FROM \(Table.entry.rawValue) WHERE id IN (\(list)) ORDER BY id") { row in
            SealedSyncRow(
                table: .entry, id: try row.text(0), version: try row.integer(1), nonce: try row.blob(2), ciphertext: try row.blob(3))
        }
    }

    /// Every field, length-prefixed, as the manifest (format 3) and the index's row digests
    /// (format 4) cover them.
    func appendFields(to bytes: inout [UInt8]) {
        CanonicalEncoding.appendString(table.rawValue, to: &bytes)
        CanonicalEncoding.appendString(id, to: &bytes)
        CanonicalEncoding.appendInteger(version, to: &bytes)
        CanonicalEncoding.appendBytes(nonce, to: &bytes)
        CanonicalEncoding.appendBytes(ciphertext, to: &bytes)
    }

    static func additionalData(vaultID: Data, table: Table, id: String, version: Int) -> Data {
        CanonicalEncoding.data(additionalBytes(vaultID: vaultID, table: table, id: id, version: version))
    }

    /// `additionalData`'s bytes, as opening a row passes them (no Data made for each row).
    static func additionalBytes(vaultID: Data, table: Table, id: String, version: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(48 + vaultID.count + id.utf8.count)
        CanonicalEncoding.appendUTF8("tokens/\(table.rawValue)/v1", to: &bytes)
        CanonicalEncoding.appendBytes(vaultID, to: &bytes)
        CanonicalEncoding.appendString(id, to: &bytes)
        CanonicalEncoding.appendInteger(version, to: &bytes)
        return bytes
    }

    /// `plaintext` sealed as version `version` of row `id`.
    static func seal(_ plaintext: [UInt8], table: Table, id: String, version: Int, keys: VaultKeys) throws -> SealedSyncRow {
        let aad = additionalData(vaultID: keys.vaultID, table: table, id: id, version: version)
        let sealed = try VaultCrypto.seal(plaintext, key: keys.entries, authenticating: aad)
        return SealedSyncRow(table: table, id: id, version: version, nonce: sealed.nonce, ciphertext: sealed.ciphertext)
    }

    /// The plaintext, for the caller to wipe; `entryDamaged` when it fails to open. Opened under
    /// the entries key's one key schedule (`VaultKeys.entriesOpening`), as the entries are.
    func open(keys: VaultKeys) throws -> [UInt8] {
        let aad = Self.additionalBytes(vaultID: keys.vaultID, table: table, id: id, version: version)
        guard let plaintext = keys.entriesOpening.open(nonce: nonce, ciphertext: ciphertext, authenticating: aad)
        else { throw VaultError.entryDamaged(id: "\(table.rawValue) \(id)") }
        return plaintext
    }

    /// The row's primary key as its table stores it (an integer for the account's one row).
    private static func key(_ table: Table, _ id: String) -> DatabaseValueConvertible {
        table == .account ? Int(id) ?? 1 : id
    }

    /// Stores this row in place of the one at version `version - 1` (or as a new row).
    func write(_ db: Database) throws {
        let key = Self.key(table, id)
        if version == 1 {
            try VaultRows.execute(
                db, "INSERT INTO \(table.rawValue) (id, version, nonce, ciphertext) VALUES (?, 1, ?, ?)", [key, nonce, ciphertext])
        } else {
            try VaultRows.execute(
                db, "UPDATE \(table.rawValue) SET version = ?, nonce = ?, ciphertext = ? WHERE id = ? AND version = ?",
                [version, nonce, ciphertext, key, version - 1])
        }
    }

    static func delete(_ table: Table, id: String, _ db: Database) throws {
        try VaultRows.execute(db, "DELETE FROM \(table.rawValue) WHERE id = ?", [key(table, id)])
    }
}
