import Foundation

extension VaultHeader {
    /// The header of a current-format vault and its key slots, selected by name; throws for any
    /// other (an older format has no such columns).
    static func fetchCurrent(_ db: some VaultQuerying) throws -> VaultHeader {
        let rows = try db.rows("SELECT format_version, vault_id, revision, manifest, mac FROM header WHERE id = 1") { row in
            (
                format: try row.integer(0), vaultID: try row.blob(1), revision: try row.integer(2), manifest: try row.blob(3),
                mac: try row.blob(4)
            )
        }
        guard let row = rows.first else { throw VaultRowError(column: 0) }
        return VaultHeader(
            formatVersion: row.format, vaultID: row.vaultID, slots: try KeySlot.fetchAll(db), revision: row.revision,
            manifest: row.manifest, mac: row.mac)
    }
}
