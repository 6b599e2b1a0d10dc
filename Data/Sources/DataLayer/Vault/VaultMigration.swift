import Foundation
import GRDB

/// Format 1 to format 2, on the first unlock by a build that writes format 2: the new columns,
/// every entry re-encrypted with its version in the associated data, and a header with the
/// revision and manifest, all in one SQLite transaction. Interrupted anywhere (an error, a
/// kill, a full disk), SQLite rolls it back and the format-1 vault opens as before.
enum VaultMigration {
    static func migrate(_ vault: UnlockedVault, step: ((Int) throws -> Void)?) throws {
        let keys = vault.keys
        try VaultDatabase.guarding(path: vault.path) {
            try vault.database.write { db in
                let header = try Vault.readHeader(db, path: vault.path)
                // Another tokens may have migrated it since this one read the header.
                guard header.formatVersion == 1 else { return }
                guard header.isAuthentic(keys: keys) else { throw VaultError.headerTampered }
                try VaultSchema.check(db, format: 1)
                try db.execute(sql: VaultSchema.v2)
                try VaultRows.execute(db, "INSERT INTO grdb_migrations (identifier) VALUES (?)", ["v2"])
                for (index, record) in try EntryRecord.fetchAll(db).enumerated() {
                    let account = try EntryCipher.open(record, keys: keys, format: 1)
                    let sealed = try EntryCipher.seal(account, version: record.version + 1, keys: keys)
                    try VaultRows.reseal(record, updatedAt: record.updatedAt, sealed: sealed, db)
                    try step?(index)
                }
                try Vault.write(
                    VaultHeader.make(
                        vaultID: header.vaultID, slots: header.slots, revision: 1, manifest: try VaultManifest.current(db),
                        keys: keys),
                    in: db)
            }
        }
    }
}
