import Foundation

extension VaultHeader {
    /// The header and its key slots, of any format (format 1 has no revision or manifest: 0 and
    /// empty), over either connection; columns selected by name. A file without the tables is
    /// damaged; a value of the wrong type throws VaultRowError (`VaultDatabase.guarding` says so).
    static func read(_ db: some VaultQuerying, path: String) throws -> VaultHeader {
        let tables = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('header', 'key_slot')") {
            try $0.text(0)
        }
        guard Set(tables).count == 2 else { throw VaultError.damaged(path: path, reason: "it has no vault header") }
        let columns = Set(try db.rows("SELECT name FROM pragma_table_info('header')") { try $0.text(0) })
        let versioned = columns.isSuperset(of: ["revision", "manifest"])
        let rows = try db.rows("SELECT format_version, vault_id, mac\(versioned ? ", revision, manifest" : "") FROM header WHERE id = 1") {
            row in
            (
                format: try row.integer(0), vaultID: try row.blob(1), mac: try row.blob(2), revision: versioned ? try row.integer(3) : 0,
                manifest: versioned ? try row.blob(4) : Data()
            )
        }
        guard let row = rows.first else { throw VaultError.damaged(path: path, reason: "it has no vault header") }
        return VaultHeader(
            formatVersion: row.format, vaultID: row.vaultID, slots: try KeySlot.fetchAll(db), revision: row.revision,
            manifest: row.manifest, mac: row.mac)
    }
}
