import Logging
import PostgresNIO

/// The server's tables, created and upgraded on start. Each migration is a list of single
/// statements run in one transaction, under an advisory lock, so instances starting together
/// migrate once. Every table is keyed by the account first (a later distribution column).
enum PostgresSchema {
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE sync_account (
                id uuid PRIMARY KEY, auth_key_digest bytea NOT NULL, created_at timestamptz NOT NULL,
                seq bigint NOT NULL DEFAULT 0, horizon bigint NOT NULL DEFAULT 0)
            """,
            """
            CREATE TABLE device (
                account_id uuid NOT NULL REFERENCES sync_account (id), id uuid NOT NULL, name text NOT NULL,
                token_digest bytea NOT NULL UNIQUE, enrolled_at timestamptz NOT NULL, revoked_at timestamptz,
                position bigint GENERATED ALWAYS AS IDENTITY, PRIMARY KEY (account_id, id))
            """,
            """
            CREATE TABLE entry (
                account_id uuid NOT NULL REFERENCES sync_account (id), id uuid NOT NULL, seq bigint NOT NULL,
                deleted boolean NOT NULL, key_version integer NOT NULL, nonce bytea NOT NULL, ciphertext bytea NOT NULL,
                changed_at timestamptz NOT NULL, PRIMARY KEY (account_id, id))
            """,
            "CREATE UNIQUE INDEX entry_by_seq ON entry (account_id, seq)",
            "CREATE INDEX entry_tombstones ON entry (changed_at) WHERE deleted",
            "CREATE TABLE enrolment_attempt (account_id uuid NOT NULL, address text NOT NULL, at timestamptz NOT NULL)",
            "CREATE INDEX enrolment_attempt_by_account ON enrolment_attempt (account_id, at)",
            "CREATE INDEX enrolment_attempt_by_address ON enrolment_attempt (address, at)",
        ],
        // 2: accounts opened, for their rate limit (AccountCreationLimit).
        [
            "CREATE TABLE account_creation (address text NOT NULL, at timestamptz NOT NULL)",
            "CREATE INDEX account_creation_by_at ON account_creation (at)",
            "CREATE INDEX account_creation_by_address ON account_creation (address, at)",
        ],
        // 3: sync key rotation: the key's version and the earlier keys (sealed by a client), each
        // device's own key, and the new key wrapped for each device.
        [
            "ALTER TABLE sync_account ADD COLUMN key_version integer NOT NULL DEFAULT 1, ADD COLUMN key_ring bytea",
            "ALTER TABLE device ADD COLUMN device_key bytea",
            """
            CREATE TABLE wrapped_key (
                account_id uuid NOT NULL, device_id uuid NOT NULL, key_version integer NOT NULL, wrapped bytea NOT NULL,
                PRIMARY KEY (account_id, device_id), FOREIGN KEY (account_id, device_id) REFERENCES device (account_id, id))
            """,
        ],
        // 4: the entries' earlier versions (history and undo), each replaced by a push; only live
        // versions are kept, so a row is never a tombstone.
        [
            """
            CREATE TABLE entry_history (
                account_id uuid NOT NULL REFERENCES sync_account (id), id uuid NOT NULL, seq bigint NOT NULL,
                key_version integer NOT NULL, nonce bytea NOT NULL, ciphertext bytea NOT NULL,
                changed_at timestamptz NOT NULL, replaced_at timestamptz NOT NULL, PRIMARY KEY (account_id, seq))
            """
        ],
        // 5: invitations (`server.signup invitation`), kept as digests; one account takes each.
        [
            """
            CREATE TABLE invitation (
                digest bytea PRIMARY KEY, created_at timestamptz NOT NULL, expires_at timestamptz NOT NULL,
                used_by uuid, used_at timestamptz)
            """
        ],
        // 6: when each device was last seen (written in batches by the housekeeping), and an
        // operator's quota per account (null: the server's).
        [
            "ALTER TABLE device ADD COLUMN last_seen_at timestamptz",
            "ALTER TABLE sync_account ADD COLUMN quota_entries bigint, ADD COLUMN quota_bytes bigint",
        ],
        // 7: a push of plain writes in one statement (`PostgresPushFunction`).
        [PostgresPushFunction.create],
        // 8: an authenticated push in one statement, the token checked in it.
        [PostgresPushFunction.createForDevice],
        // 9: each account's use of its quota kept in its row, by triggers (`PostgresEntryUsage`).
        PostgresEntryUsage.migration,
    ]

    /// Brings the schema (in the connection's search path) to the newest version.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7146001)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_migration (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                logger: logger)
            let versions = try await connection.query("SELECT coalesce(max(version), 0) FROM schema_migration", logger: logger)
            let applied = Int(try await versions.decode(Int32.self).collected().first ?? 0)
            // A newer release migrated this database: serving it could misread or lose what it stores.
            if applied > migrations.count { throw PostgresMigrationError.newerSchema(database: applied, known: migrations.count) }
            for (index, statements) in migrations.enumerated() where index + 1 > applied {
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.query("INSERT INTO schema_migration (version) VALUES (\(Int32(index + 1)))", logger: logger)
                logger.info("applied schema migration \(index + 1)")
            }
        }
    }
}
