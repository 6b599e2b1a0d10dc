import Foundation
import GRDB

/// An older vault to the current format, on the first unlock by a build that writes it, in one
/// SQLite transaction. Interrupted anywhere (an error, a kill, a full disk), SQLite rolls it back
/// and the vault opens as before.
///
/// - Format 1 to 2: the new columns, and every entry re-encrypted with its version in the
///   associated data (format 1 had no manifest to check).
/// - Format 2 to 3: the sync tables (empty).
/// - Format 3 to 4: the sealed index of every row, made by decrypting every entry once.
/// - Format 4 to 5: the index's sealed part in pieces, one row each (its records unchanged).
///
/// A format-2 or -3 vault's manifest, or a format-4 vault's index and every row against it, is
/// checked first, so a vault changed outside Tokens is refused rather than sealed as it is.
/// Each ends with a header at the current format, its revision and the new index's binding
/// under a new MAC.
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
                var index: VaultIndex?
                if header.formatVersion == 1 {
                    try migrateFormat1Entries(db, keys: keys, step: step)
                } else if header.formatVersion < 4 {
                    let manifest = try VaultManifest.current(db, format: header.formatVersion)
                    guard manifest == header.manifest else { throw VaultError.modified(.entries) }
                } else {
                    index = try VaultManifest.check(EntryTable.all(db), in: db, against: header, keys: keys)
                }
                if header.formatVersion < 3 { try run("v3", VaultSchema.v3, db) }
                if header.formatVersion < 4 { try run("v4", VaultSchema.v4, db) }
                try run("v5", VaultSchema.v5, db)
                let migrated = try index ?? VaultIndex.made(from: db, keys: keys, previous: nil)
                try Vault.write(
                    VaultHeader.make(
                        vaultID: header.vaultID, slots: header.slots, revision: header.revision + 1,
                        manifest: try migrated.store(in: db, keys: keys, replacing: index), keys: keys),
                    in: db)
            }
        }
    }

    /// Runs the schema migration `name`, recorded as GRDB's migrator records it.
    private static func run(_ name: String, _ sql: String, _ db: Database) throws {
        try db.execute(sql: sql)
        try VaultRows.execute(db, "INSERT INTO grdb_migrations (identifier) VALUES (?)", [name])
    }

    /// Format 1's entries as format 2's: the version column, each entry sealed again.
    private static func migrateFormat1Entries(_ db: Database, keys: VaultKeys, step: ((Int) throws -> Void)?) throws {
        try run("v2", VaultSchema.v2, db)
        for (index, record) in try EntryTable.all(db).enumerated() {
            let account = try EntryCipher.open(record, keys: keys, format: 1)
            let sealed = try EntryCipher.seal(account, version: record.version + 1, keys: keys)
            try EntryTable.reseal(record, updatedAt: record.updatedAt, sealed: sealed, db)
            try step?(index)
        }
    }
}
