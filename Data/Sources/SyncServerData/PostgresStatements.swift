import Logging
import PostgresNIO

/// Every SQL statement the sync server runs on a request, in one place: the store and the
/// notifier bind their values to these texts (`$1`… in order of first use), and `make loadtest`
/// runs the same texts in pgbench (Tests-Integration/Load/sync.pgbench, compared with these by a
/// test), so the server is measured against PostgreSQL doing exactly the server's work.
/// The schema's statements are in `PostgresSchema`.
public enum PostgresStatements {
    // Accounts and enrolment.
    public static let createAccount = """
        INSERT INTO sync_account (id, auth_key_digest, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id
        """
    public static let account = "SELECT auth_key_digest, created_at, key_version, key_ring FROM sync_account WHERE id = $1"
    public static let forgetEnrolmentAttempts = "DELETE FROM enrolment_attempt WHERE at < $1"
    public static let recordEnrolmentAttempt = "INSERT INTO enrolment_attempt (account_id, address, at) VALUES ($1, $2, $3)"
    public static let countEnrolmentAttempts = """
        SELECT count(*) FILTER (WHERE account_id = $1), count(*) FILTER (WHERE address = $2) FROM enrolment_attempt WHERE at >= $3
        """
    public static let forgetAccountCreations = "DELETE FROM account_creation WHERE at < $1"
    public static let recordAccountCreation = "INSERT INTO account_creation (address, at) VALUES ($1, $2)"
    public static let countAccountCreations = "SELECT count(*) FILTER (WHERE address = $1), count(*) FROM account_creation WHERE at >= $2"
    public static let lockAccountCountingDevices = """
        SELECT (SELECT count(*) FROM device WHERE account_id = a.id AND revoked_at IS NULL) FROM sync_account a WHERE a.id = $1 FOR UPDATE
        """
    public static let addDevice = """
        INSERT INTO device (account_id, id, name, token_digest, enrolled_at, device_key) VALUES ($1, $2, $3, $4, $5, nullif($6, ''::bytea))
        """
    public static let devices = """
        SELECT account_id, id, name, token_digest, enrolled_at, revoked_at, device_key FROM device WHERE account_id = $1 ORDER BY position
        """
    public static let revokeDevice = """
        UPDATE device SET revoked_at = coalesce(revoked_at, $1) WHERE account_id = $2 AND id = $3 RETURNING id
        """
    public static let setDeviceKey = """
        UPDATE device SET device_key = coalesce(device_key, $1) WHERE account_id = $2 AND id = $3 RETURNING device_key
        """

    // A key rotation, in one transaction (an empty key ring or device key binds as NULL): the account at the version before, its devices, the wrapped keys.
    public static let rotateAccountKey = """
        UPDATE sync_account SET key_version = $1, auth_key_digest = $2, key_ring = nullif($3, ''::bytea) WHERE id = $4 AND key_version = $1 - 1 RETURNING id
        """
    public static let revokeDevices = """
        UPDATE device SET revoked_at = coalesce(revoked_at, $1) WHERE account_id = $2 AND id = ANY($3)
        """
    public static let keepWrappedKey = """
        INSERT INTO wrapped_key (account_id, device_id, key_version, wrapped) VALUES ($1, $2, $3, $4) \
        ON CONFLICT (account_id, device_id) DO UPDATE SET key_version = EXCLUDED.key_version, wrapped = EXCLUDED.wrapped
        """
    public static let wrappedKey = "SELECT key_version, wrapped FROM wrapped_key WHERE account_id = $1 AND device_id = $2"

    // Every authenticated request.
    public static let deviceWithToken = """
        SELECT account_id, id, name, token_digest, enrolled_at, revoked_at, device_key FROM device WHERE token_digest = $1
        """

    // A push, in one transaction (per change: the stored entry, then the write if the rules decide so).
    public static let lockAccount = "SELECT seq FROM sync_account WHERE id = $1 FOR UPDATE"
    /// The account's use of its storage quota (StorageUsage): live entries, and bytes of ciphertext.
    public static let usage = """
        SELECT count(*) FILTER (WHERE NOT deleted), coalesce(sum(octet_length(ciphertext)), 0)::bigint FROM entry WHERE account_id = $1
        """
    public static let entry = """
        SELECT id, seq, deleted, key_version, nonce, ciphertext, changed_at FROM entry WHERE account_id = $1 AND id = $2
        """
    /// Keeps the live version it replaces as an earlier one (the CTE reads the row as it was).
    public static let writeEntry = """
        WITH kept AS (INSERT INTO entry_history (account_id, id, seq, key_version, nonce, ciphertext, changed_at, replaced_at) \
        SELECT account_id, id, seq, key_version, nonce, ciphertext, changed_at, $1::timestamptz FROM entry WHERE account_id = $2 AND id = $3 AND NOT deleted) \
        INSERT INTO entry AS e (account_id, id, seq, deleted, key_version, nonce, ciphertext, changed_at) \
        VALUES ($2, $3, $4, $5, $6, $7, $8, $1) \
        ON CONFLICT (account_id, id) DO UPDATE SET seq = EXCLUDED.seq, deleted = EXCLUDED.deleted, \
        key_version = EXCLUDED.key_version, nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext, changed_at = EXCLUDED.changed_at
        """
    public static let setHead = "UPDATE sync_account SET seq = $1 WHERE id = $2"
    /// After a push that wrote: wakes the other instances' long-polls (`PostgresChangeNotifier`).
    public static let notify = "SELECT pg_notify($1, $2)"

    // A pull: the horizon, the page, then the head (read after the page, never behind it).
    public static let pullBounds = "SELECT horizon, key_version FROM sync_account WHERE id = $1"
    public static let changes = """
        SELECT id, seq, deleted, key_version, nonce, ciphertext, changed_at FROM entry \
        WHERE account_id = $1 AND seq > $2 ORDER BY seq LIMIT $3
        """
    public static let head = "SELECT seq FROM sync_account WHERE id = $1"

    // The data's generation (read at most every few seconds, not per request): the cluster, its
    // timeline (a point-in-time recovery or a promoted standby starts a new one), the database
    // and the file of its account table (pg_restore, a re-created database or a TRUNCATE give new
    // ones). The control functions may be refused to the role on managed services: then without.
    public static let generation = """
        SELECT (SELECT system_identifier FROM pg_control_system())::text || '/' || \
        (SELECT timeline_id FROM pg_control_checkpoint())::text || '/' || \
        (SELECT oid FROM pg_database WHERE datname = current_database())::text || '/' || \
        pg_relation_filenode('sync_account')::text
        """
    public static let generationWithoutControl = """
        SELECT (SELECT oid FROM pg_database WHERE datname = current_database())::text || '/' || \
        pg_relation_filenode('sync_account')::text
        """

    // History: a page of the earlier versions (what `tokens history` decrypts).
    public static let earlierEntries = """
        SELECT id, seq, key_version, nonce, ciphertext, changed_at, replaced_at FROM entry_history \
        WHERE account_id = $1 AND seq > $2 ORDER BY seq LIMIT $3
        """

    // Housekeeping.
    /// HistoryRetention.kept in one statement: per account newest first, the versions of each
    /// entry and the bytes so far; a row past either bound, or replaced before the cutoff, goes.
    public static let purgeHistory = """
        WITH ranked AS (SELECT account_id, seq, replaced_at, \
        row_number() OVER (PARTITION BY account_id, id ORDER BY seq DESC) AS newer, \
        sum(octet_length(ciphertext)) OVER (PARTITION BY account_id ORDER BY seq DESC) AS bytes FROM entry_history), \
        gone AS (DELETE FROM entry_history h USING ranked r WHERE h.account_id = r.account_id AND h.seq = r.seq \
        AND (r.replaced_at < $1 OR r.newer > $2 OR r.bytes > $3) RETURNING 1) \
        SELECT count(*) FROM gone
        """
    public static let purgeTombstones = """
        WITH gone AS (DELETE FROM entry WHERE deleted AND changed_at < $1 RETURNING account_id, seq), \
        raised AS (UPDATE sync_account a SET horizon = greatest(a.horizon, g.top) \
        FROM (SELECT account_id, max(seq) AS top FROM gone GROUP BY account_id) g WHERE a.id = g.account_id) \
        SELECT count(*) FROM gone
        """

    /// The logger postgres-nio gets with each of these queries: it logs them at debug level only,
    /// and copies the logger with the connection's id in its metadata on every query (2 % of the
    /// server's CPU under load with a real handler). Failures reach the server's log as the errors
    /// they are; the connections' own events go to the client's background logger.
    static let queryLogger = Logger(label: "tokens.server.sql") { _ in SwiftLogNoOpLogHandler() }

    /// `sql` with `values` bound to `$1`, `$2`… in order.
    static func query(_ sql: String, _ values: any PostgresEncodable...) throws -> PostgresQuery {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { try bindings.append(value) }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
