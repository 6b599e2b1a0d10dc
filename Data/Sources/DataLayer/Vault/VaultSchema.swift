import GRDB

/// The vault's SQLite schema, as versioned GRDB migrations.
enum VaultSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
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
                """)
        }
        return migrator
    }
}
