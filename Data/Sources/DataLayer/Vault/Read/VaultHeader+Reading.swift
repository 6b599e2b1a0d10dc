import Foundation

extension VaultHeader {
    /// The header and its key slots, of any format, over either connection; columns selected by
    /// name. A current-format header takes one query (every command's open pays for it); a
    /// header without the revision and manifest (format 1: 0 and empty), or a file without the
    /// tables (damaged), is found out by asking the schema. A value of the wrong type throws
    /// VaultRowError (`VaultDatabase.guarding` says so).
    static func read(_ db: some VaultQuerying, path: String) throws -> VaultHeader {
        let current = try? db.rows("SELECT format_version, vault_id, mac, revision, manifest FROM header WHERE id = 1") { row in
            try HeaderRow(format: row.integer(0), vaultID: row.blob(1), mac: row.blob(2), revision: row.integer(3), manifest: row.blob(4))
        }
        guard let row = try current?.first ?? older(db, path: path) else {
            throw VaultError.damaged(path: path, reason: "it has no vault header")
        }
        return VaultHeader(
            formatVersion: row.format, vaultID: row.vaultID, slots: try KeySlot.fetchAll(db), revision: row.revision,
            manifest: row.manifest, mac: row.mac)
    }

    /// The header's columns.
    private struct HeaderRow {
        let format: Int
        let vaultID: Data
        let mac: Data
        let revision: Int
        let manifest: Data
    }

    /// A header the current query could not read: format 1's, or none at all (nil).
    private static func older(_ db: some VaultQuerying, path: String) throws -> HeaderRow? {
        let tables = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN \(Vault.ownTables)") {
            try $0.text(0)
        }
        // None of a vault's tables: another program's database, not a damaged vault.
        guard !tables.isEmpty else { throw VaultError.foreignDatabase(path: path) }
        guard Set(tables).isSuperset(of: ["header", "key_slot"]) else {
            throw VaultError.damaged(path: path, reason: "it has no vault header")
        }
        let columns = Set(try db.rows("SELECT name FROM pragma_table_info('header')") { try $0.text(0) })
        let versioned = columns.isSuperset(of: ["revision", "manifest"])
        return try db.rows("SELECT format_version, vault_id, mac\(versioned ? ", revision, manifest" : "") FROM header WHERE id = 1") {
            row in
            try HeaderRow(
                format: row.integer(0), vaultID: row.blob(1), mac: row.blob(2), revision: versioned ? row.integer(3) : 0,
                manifest: versioned ? row.blob(4) : Data())
        }.first
    }
}
