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
    /// Unused, or used by this account already (a retried request); unexpired.
    public static let takeInvitation = """
        UPDATE invitation SET used_by = $2, used_at = coalesce(used_at, $3) \
        WHERE digest = $1 AND expires_at > $3 AND (used_by IS NULL OR used_by = $2) RETURNING digest
        """
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
        SELECT account_id, id, name, token_digest, enrolled_at, revoked_at, device_key, last_seen_at FROM device WHERE account_id = $1 \
        ORDER BY position
        """
    // Each device's latest sighting, never moved back (several instances write their own).
    public static let recordActivity = """
        UPDATE device d SET last_seen_at = greatest(d.last_seen_at, s.at) \
        FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) AS s (account_id, id, at) \
        WHERE d.account_id = s.account_id AND d.id = s.id
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

    /// A push of plain writes in one round trip (`PostgresPushFunction`): the head before its
    /// writes, or NULL when the push needs the transaction below and the rules.
    public static let push = """
        SELECT tokens_push($1, $2::uuid[], $3::bigint[], $4::boolean[], $5::integer[], $6::bytea[], $7::bytea[], $8, $9, $10, $11)
        """
    /// The same for the device of a token digest, checked in the same statement
    /// (`PostgresPushFunction.createForDevice`): the device (all NULL when the token is unknown or
    /// revoked, nothing written) and the head before the writes (NULL when the push needs the
    /// transaction below).
    public static let pushForToken = """
        SELECT o_head, o_account, o_device, o_name, o_enrolled, o_device_key FROM \
        tokens_push_device($1, $2::uuid[], $3::bigint[], $4::boolean[], $5::integer[], $6::bytea[], $7::bytea[], $8, $9, $10, $11)
        """
    // Any other push, in one transaction (`PostgresPush`): its state, then its writes if the rules
    // decide any.
    /// Locks the account's row and reads its head, its storage use (StorageUsage: live entries,
    /// bytes of ciphertext) and the stored entries the push names (one row each, or one row of
    /// NULLs). A statement that waited for the lock read these under a snapshot from before the
    /// wait: its second column says whether the row is still the version that snapshot saw.
    public static let pushState = """
        SELECT a.seq AS head, a.xmin = (SELECT xmin FROM sync_account WHERE id = $1) AS current, a.live_entries, a.stored_bytes, \
        a.quota_entries, a.quota_bytes, e.id, e.seq AS stored_seq, e.deleted, e.key_version, e.nonce, e.ciphertext, e.changed_at FROM sync_account a \
        LEFT JOIN entry e ON e.account_id = $1 AND e.id = ANY($2::uuid[]) WHERE a.id = $1 FOR UPDATE OF a
        """
    /// Writes entries (none twice) at the sequences after the head given, in order, keeping each
    /// live version it replaces as an earlier one (the CTE reads the rows as they were); moves the
    /// head past them, and wakes the other instances' long-polls (`PostgresChangeNotifier`:
    /// PostgreSQL delivers the notification at commit, never before).
    public static let writeEntries = """
        WITH change AS (SELECT * FROM unnest($1::uuid[], $2::boolean[], $3::integer[], $4::bytea[], $5::bytea[]) \
        WITH ORDINALITY AS c (id, deleted, key_version, nonce, ciphertext, n)), \
        kept AS (INSERT INTO entry_history (account_id, id, seq, key_version, nonce, ciphertext, changed_at, replaced_at) \
        SELECT e.account_id, e.id, e.seq, e.key_version, e.nonce, e.ciphertext, e.changed_at, $6::timestamptz \
        FROM entry e JOIN change c ON c.id = e.id WHERE e.account_id = $7 AND NOT e.deleted), \
        written AS (INSERT INTO entry AS e (account_id, id, seq, deleted, key_version, nonce, ciphertext, changed_at) \
        SELECT $7, id, $8::bigint + n, deleted, key_version, nonce, ciphertext, $6 FROM change \
        ON CONFLICT (account_id, id) DO UPDATE SET seq = EXCLUDED.seq, deleted = EXCLUDED.deleted, \
        key_version = EXCLUDED.key_version, nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext, changed_at = EXCLUDED.changed_at), \
        moved AS (UPDATE sync_account SET seq = $8::bigint + cardinality($1::uuid[]) WHERE id = $7) \
        SELECT pg_notify($9, $7::text)
        """

    // A pull: its page in one statement, as of one moment, so the head is never behind the
    // entries (one row of the account's bounds and head with NULLs when no entry follows the cursor).
    public static let page = """
        SELECT a.horizon, a.key_version, a.seq AS head, e.id, e.seq, e.deleted, e.key_version, e.nonce, e.ciphertext, e.changed_at \
        FROM sync_account a LEFT JOIN LATERAL (SELECT id, seq, deleted, key_version, nonce, ciphertext, changed_at FROM entry \
        WHERE account_id = $1 AND seq > $2 ORDER BY seq LIMIT $3) e ON true WHERE a.id = $1 ORDER BY e.seq
        """
    /// A pull's first read: the token's device and, unless it is revoked, the page of its account
    /// (the token checked in the same statement as the page: one round trip, not two).
    public static let pageForToken = """
        SELECT d.account_id, d.id, d.name, d.token_digest, d.enrolled_at, d.revoked_at, d.device_key, \
        a.horizon, a.key_version, a.seq AS head, e.id, e.seq, e.deleted, e.key_version, e.nonce, e.ciphertext, e.changed_at \
        FROM device d JOIN sync_account a ON a.id = d.account_id \
        LEFT JOIN LATERAL (SELECT id, seq, deleted, key_version, nonce, ciphertext, changed_at FROM entry \
        WHERE account_id = d.account_id AND seq > $1 ORDER BY seq LIMIT $2) e ON d.revoked_at IS NULL \
        WHERE d.token_digest = $3 ORDER BY e.seq
        """
    // The parts of a page, each alone (the head also while a pull waits).
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
    /// The tombstones' accounts are locked first, in id order, as a push locks its account before
    /// it writes entries: deleting first and raising the horizon after would wait for a push's
    /// account while that push waits for a deleted entry (a deadlock). At most $2 at a time.
    public static let lockAccountsWithTombstones = """
        SELECT id FROM sync_account WHERE id IN (SELECT account_id FROM entry WHERE deleted AND changed_at < $1) \
        ORDER BY id LIMIT $2 FOR UPDATE
        """
    public static let purgeTombstones = """
        WITH gone AS (DELETE FROM entry WHERE deleted AND changed_at < $1 AND account_id = ANY($2::uuid[]) \
        RETURNING account_id, seq), \
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
