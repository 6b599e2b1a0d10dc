import Crypto
import Foundation
import GRDB

/// The vault's SQLite schema, as versioned GRDB migrations, and the check that a file holds
/// nothing else: a trigger, view, table or index Tokens did not create is refused at unlock
/// and before every write, since SQLite would run a planted trigger inside our transactions.
enum VaultSchema {
    static let v1 = """
        CREATE TABLE header (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            format_version INTEGER NOT NULL,
            vault_id BLOB NOT NULL,
            mac BLOB NOT NULL
        );
        CREATE TABLE key_slot (
            id BLOB PRIMARY KEY,
            kdf TEXT NOT NULL,
            kdf_n INTEGER NOT NULL,
            kdf_r INTEGER NOT NULL,
            kdf_p INTEGER NOT NULL,
            salt BLOB NOT NULL,
            nonce BLOB NOT NULL,
            wrapped_key BLOB NOT NULL
        );
        CREATE TABLE entry (
            id TEXT PRIMARY KEY,
            sort_order INTEGER NOT NULL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            nonce BLOB NOT NULL,
            ciphertext BLOB NOT NULL
        );
        """

    /// Format 2: a version per entry (in its associated data) and the header's revision and
    /// manifest. Run by `migrator` for a new vault and by `VaultMigration` for a format-1 one,
    /// so both end with the same schema text.
    static let v2 = """
        ALTER TABLE entry ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE header ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE header ADD COLUMN manifest BLOB NOT NULL DEFAULT x'';
        """

    /// Format 3: the sync state, sealed like the entries (`VaultSyncRows`): this machine's sync
    /// membership (one row) and each entry's sync record, base and pending flag (one row per
    /// entry, deleted ones too). Empty until the vault joins a sync account.
    static let v3 = """
        CREATE TABLE sync_account (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            version INTEGER NOT NULL,
            nonce BLOB NOT NULL,
            ciphertext BLOB NOT NULL
        );
        CREATE TABLE sync_entry (
            id TEXT PRIMARY KEY,
            version INTEGER NOT NULL,
            nonce BLOB NOT NULL,
            ciphertext BLOB NOT NULL
        );
        """

    /// Format 4: the index of every row (`VaultIndex`): its sealed part (`SealedVaultIndex`),
    /// one row, and its chunks of row digests, one row each.
    static let v4 = """
        CREATE TABLE entry_index (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            sealed BLOB NOT NULL
        );
        CREATE TABLE index_chunk (
            id INTEGER PRIMARY KEY,
            body BLOB NOT NULL
        );
        """

    /// Format 5: the index's sealed part in pieces (`SealedVaultIndex`), one row each with the
    /// number of haystacks it holds, in place of format 4's one row, so that a search opens one
    /// piece at a time and passes the pieces its word is not in.
    static let v5 = """
        DROP TABLE entry_index;
        CREATE TABLE index_piece (
            id INTEGER PRIMARY KEY,
            haystacks INTEGER NOT NULL,
            sealed BLOB NOT NULL
        );
        """

    /// The migration that belongs to each format version.
    static let migrationForFormat = [1: "v1", 2: "v2", 3: "v3", 4: "v4", 5: "v5"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: v1) }
        migrator.registerMigration("v2") { db in try db.execute(sql: v2) }
        migrator.registerMigration("v3") { db in try db.execute(sql: v3) }
        migrator.registerMigration("v4") { db in try db.execute(sql: v4) }
        migrator.registerMigration("v5") { db in try db.execute(sql: v5) }
        return migrator
    }

    /// One row of `sqlite_schema`.
    struct Object: Hashable, Sendable {
        let type: String
        let name: String
        let table: String
        let sql: String?
    }

    /// The objects a vault of `format` holds: what the migrations make in an empty database.
    static func expected(format: Int) -> Set<Object>? {
        guard let database = migrated(format: format) else { return nil }
        return try! database.read(objects)
    }

    /// An in-memory database migrated to `format`. (Our own SQL cannot fail to run.)
    static func migrated(format: Int) -> DatabaseQueue? {
        guard let migration = migrationForFormat[format] else { return nil }
        let queue = try! DatabaseQueue()
        try! migrator.migrate(queue, upTo: migration)
        return queue
    }

    /// `digest(db)` of a database migrated to each format, so that unlocking compares one hash
    /// rather than migrating an in-memory database (about 3 ms of every command). A test keeps
    /// them equal to what the migrations make.
    static let expectedDigests: [Int: String] = [
        1: "9fca8f7c9dfd6f4b7919e3e89a321e8cd28f7194db80862b63b94ca3377fcdd4",
        2: "91bc8c1265aa4c080a6cda399796c438c9f165cb0d57239ab5029637d9122f1c",
        3: "925bd6e8adb90fe906b4af35d4699a0ed88ed2a34fc1201b6f3147b074b05819",
        4: "3eaf6e6bd65197f45cfa460661f64d957fe13f43964d7b2cc9ba3f4c2a7f9c39",
        5: "52f3e94e1f23d823f17dd5dcd0d6136bb48eeac2a717aca10adaed63b8f47400",
    ]

    static func objects(_ db: Database) throws -> Set<Object> {
        Set(
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_schema").map { row in
                Object(type: row["type"], name: row["name"], table: row["tbl_name"], sql: row["sql"])
            })
    }

    /// SHA-256 of the schema's objects in SQLite's order, each field length-prefixed, in hex.
    static func digest(_ db: some VaultQuerying) throws -> String {
        var hash = SHA256()
        _ = try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name, tbl_name, sql") { row in
            for column in 0..<3 { hash.update(data: CanonicalEncoding.string(try row.text(column))) }
            hash.update(data: try row.optionalText(3).map { CanonicalEncoding.string($0) } ?? CanonicalEncoding.integers([-1]))
        }
        return Hex.string(hash.finalize())
    }

    /// Whether the file's schema is exactly that of `format`.
    static func matches(_ db: some VaultQuerying, format: Int) throws -> Bool {
        try expectedDigests[format] == digest(db)
    }

    /// Throws `.modified` when the file's schema is not exactly that of `format`.
    static func check(_ db: Database, format: Int) throws {
        guard expectedDigests[format] != nil else {
            throw VaultError.newerFormat(found: format, supported: VaultHeader.currentFormat)
        }
        guard try !matches(db, format: format) else { return }
        // What differs, for the message: worth a migration in memory only now.
        let found = try objects(db)
        let expected = Self.expected(format: format) ?? []
        let names = Set(expected.map(\.name))
        if let foreign = found.subtracting(expected).filter({ !names.contains($0.name) }).min(by: { $0.name < $1.name }) {
            throw VaultError.modified(.foreignSchema(kind: foreign.type, name: String(foreign.name.prefix(64))))
        }
        throw VaultError.modified(.schemaChanged)
    }
}
