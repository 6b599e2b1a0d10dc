import Foundation
import GRDB

/// An older vault to the current format, on the first unlock by a build that writes it, in one
/// SQLite transaction. Interrupted anywhere (an error, a kill, a full disk), SQLite rolls it back
/// and the vault opens as before.
///
/// - Format 1 to 2: the new columns, and every entry re-encrypted with its version in the
///   associated data (format 1 had no manifest to check).
/// - Format 2 to 3: the sync tables (empty); the format-2 manifest is checked first, so a vault
///   changed outside Tokens is refused rather than sealed as it is.
///
/// Each ends with a header at the current format, its revision and manifest under a new MAC.
enum VaultMigration {
    static func migrate(_ vault: UnlockedVault, step: ((Int) throws -> Void)?) throws {
        let keys = vault.keys
        try VaultDatabase.guarding(path: vault.path) {
            try vault.database.write { db in
                let header = try VaultHeader.read(db, path: vault.path)
                // Another tokens may have migrated it since this one read the header.
                guard header.formatVersion < VaultHeader.currentFormat else { return }
                guard header.isAuthentic(keys: keys) else { throw VaultError.headerTampered }
                try VaultSchema.check(db, format: header.formatVersion)
                if header.formatVersion == 1 {
                    try migrateFormat1Entries(db, keys: keys, step: step)
                } else {
                    guard try VaultManifest.current(db, format: 2) == header.manifest else { throw VaultError.modified(.entries) }
                }
                try db.execute(sql: VaultSchema.v3)
                try VaultRows.execute(db, "INSERT INTO grdb_migrations (identifier) VALUES (?)", ["v3"])
                try Vault.write(
                    VaultHeader.make(
                        vaultID: header.vaultID, slots: header.slots, revision: header.revision + 1,
                        manifest: try VaultManifest.current(db), keys: keys),
                    in: db)
            }
        }
    }

    /// Format 1's entries as format 2's: the version column, each entry sealed again.
    private static func migrateFormat1Entries(_ db: Database, keys: VaultKeys, step: ((Int) throws -> Void)?) throws {
        try db.execute(sql: VaultSchema.v2)
        try VaultRows.execute(db, "INSERT INTO grdb_migrations (identifier) VALUES (?)", ["v2"])
        for (index, record) in try EntryTable.all(db).enumerated() {
            let account = try EntryCipher.open(record, keys: keys, format: 1)
            let sealed = try EntryCipher.seal(account, version: record.version + 1, keys: keys)
            try EntryTable.reseal(record, updatedAt: record.updatedAt, sealed: sealed, db)
            try step?(index)
        }
    }
}
