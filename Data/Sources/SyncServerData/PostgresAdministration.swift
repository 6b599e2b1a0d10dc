import Foundation
import PostgresNIO
import SyncServer

/// `tokens-server admin`'s reads and deletions, on the store's own connections (it works with
/// every server instance stopped, and beside running ones).
extension PostgresSyncServerStore: SyncServerAdministration {
    /// Every account's devices and storage, oldest first: one statement, as of one moment.
    static let accountSummaries = """
        SELECT a.id, a.created_at, d.active, d.revoked, u.live, u.bytes, u.last, d.seen, a.quota_entries, a.quota_bytes \
        FROM sync_account a \
        CROSS JOIN LATERAL (SELECT count(*) FILTER (WHERE revoked_at IS NULL) AS active, \
        count(*) FILTER (WHERE revoked_at IS NOT NULL) AS revoked, max(last_seen_at) AS seen FROM device WHERE account_id = a.id) d \
        CROSS JOIN LATERAL (SELECT count(*) FILTER (WHERE NOT deleted) AS live, \
        coalesce(sum(octet_length(ciphertext)), 0)::bigint AS bytes, max(changed_at) AS last FROM entry WHERE account_id = a.id) u \
        ORDER BY a.created_at, a.id
        """
    static let accountIDs = "SELECT id FROM sync_account ORDER BY created_at, id"
    /// The account first, as a push takes it, so a deletion never waits in a cycle with one.
    static let lockAccount = "SELECT id FROM sync_account WHERE id = $1 FOR UPDATE"
    /// Everything of the account in one statement (foreign keys are checked at its end).
    static let deleteAccount = """
        WITH k AS (DELETE FROM wrapped_key WHERE account_id = $1), h AS (DELETE FROM entry_history WHERE account_id = $1), \
        e AS (DELETE FROM entry WHERE account_id = $1), d AS (DELETE FROM device WHERE account_id = $1), \
        t AS (DELETE FROM enrolment_attempt WHERE account_id = $1) \
        DELETE FROM sync_account WHERE id = $1
        """

    /// -1 for a part: the server's (null).
    static let setQuota = """
        UPDATE sync_account SET quota_entries = nullif($1::bigint, -1), quota_bytes = nullif($2::bigint, -1) WHERE id = $3 RETURNING id
        """

    public func setQuota(_ quota: AccountQuota, of account: SyncAccountID) async throws -> Bool {
        try await guarded(within: nil) { [self] in
            let rows = try await client.query(
                PostgresStatements.query(
                    Self.setQuota, Int64(quota.entries ?? -1), Int64(quota.bytes ?? -1), account.uuid),
                logger: PostgresStatements.queryLogger)
            return try await !rows.decode(UUID.self).collected().isEmpty
        }
    }

    static let addInvitation = "INSERT INTO invitation (digest, created_at, expires_at) VALUES ($1, $2, $3)"

    public func addInvitation(_ digest: SecretDigest, createdAt: Date, expiresAt: Date) async throws {
        _ = try await guarded(within: nil) { [self] in
            try await client.query(
                PostgresStatements.query(Self.addInvitation, Data(digest.bytes), createdAt, expiresAt),
                logger: PostgresStatements.queryLogger
            ).collected()
        }
    }

    public func accountSummaries() async throws -> [AccountSummary] {
        try await guarded(within: nil) { [self] in
            var summaries: [AccountSummary] = []
            let rows = try await client.query(
                PostgresStatements.query(Self.accountSummaries), logger: PostgresStatements.queryLogger)
            for try await (id, created, active, revoked, live, bytes, last, seen, quotaEntries, quotaBytes) in rows.decode(
                (UUID, Date, Int64, Int64, Int64, Int64, Date?, Date?, Int64?, Int64?).self)
            {
                summaries.append(
                    AccountSummary(
                        id: SyncAccountID(id), createdAt: created, activeDevices: Int(active), revokedDevices: Int(revoked),
                        usage: StorageUsage(entries: Int(live), bytes: Int(bytes)), lastChange: last, lastSeen: seen,
                        quota: AccountQuota(entries: quotaEntries.map(Int.init), bytes: quotaBytes.map(Int.init))))
            }
            return summaries
        }
    }

    public func accountIDs() async throws -> [SyncAccountID] {
        try await guarded(within: nil) { [self] in
            let rows = try await client.query(PostgresStatements.query(Self.accountIDs), logger: PostgresStatements.queryLogger)
            return try await rows.decode(UUID.self).collected().map(SyncAccountID.init)
        }
    }

    public func deleteAccount(_ id: SyncAccountID) async throws -> Bool {
        try await guarded(within: nil) { [self] in
            try await client.withTransaction(logger: PostgresStatements.queryLogger) { connection in
                let locked = try await connection.query(
                    PostgresStatements.query(Self.lockAccount, id.uuid), logger: PostgresStatements.queryLogger
                ).decode(UUID.self).collected()
                guard !locked.isEmpty else { return false }
                try await connection.query(PostgresStatements.query(Self.deleteAccount, id.uuid), logger: PostgresStatements.queryLogger)
                return true
            }
        }
    }
}
