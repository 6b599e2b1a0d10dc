/// A push in one round trip: `tokens_push`, a PL/pgSQL function the schema creates (migration 7),
/// applies a push whose every change is a plain write (the entry absent or stored at the change's
/// base, no entry named twice) within the quota: it locks the account, checks, stores the writes,
/// keeps the versions they replace, moves the head and notifies, as `PostgresPush` does in its
/// transaction, and answers the head before the writes (the changes' sequences follow it in
/// order). Anything else (a conflict, a retried push, the quota reached, an account gone) it
/// leaves untouched and answers NULL, and `PostgresPush` decides it with Domain's rules. It only
/// ever does what `PushDecision` decides for such a push, so the rules stay in Domain; the
/// function is the common case taken in one statement (each of its statements reads afresh, after
/// the account's lock).
enum PostgresPushFunction {
    /// Migration 7's function: the account's use counted over its entries at each push.
    static let create = pushFunction(
        lockingAccount: """
                SELECT a.seq, coalesce(a.quota_entries, p_quota_entries), coalesce(a.quota_bytes, p_quota_bytes)
                    INTO v_head, v_limit_entries, v_limit_bytes FROM sync_account a WHERE a.id = p_account FOR UPDATE;

            """,
        readingUse: """
                SELECT count(*) FILTER (WHERE NOT e.deleted), coalesce(sum(octet_length(e.ciphertext)), 0)
                    INTO v_live, v_bytes FROM entry e WHERE e.account_id = p_account;

            """)

    /// Migration 9's: the account's use read from its row with the lock (kept by the triggers of
    /// `PostgresEntryUsage`), so a push costs its changes, not the account's size.
    static let createCounted = pushFunction(
        lockingAccount: """
                SELECT a.seq, coalesce(a.quota_entries, p_quota_entries), coalesce(a.quota_bytes, p_quota_bytes), a.live_entries,
                    a.stored_bytes INTO v_head, v_limit_entries, v_limit_bytes, v_live, v_bytes FROM sync_account a
                    WHERE a.id = p_account FOR UPDATE;

            """,
        readingUse: "")

    /// `tokens_push` with its first statement (the account locked, its head and quota read) and
    /// the reading of the account's use (live entries, bytes) given.
    private static func pushFunction(lockingAccount: String, readingUse: String) -> String {
        """
        CREATE OR REPLACE FUNCTION tokens_push(p_account uuid, p_ids uuid[], p_based bigint[], p_deleted boolean[], \
        p_key_versions integer[], p_nonces bytea[], p_ciphertexts bytea[], p_at timestamptz, p_quota_entries bigint, \
        p_quota_bytes bigint, p_channel text) RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            v_head bigint; v_limit_entries bigint; v_limit_bytes bigint;
            v_live bigint; v_bytes bigint; v_live_after bigint; v_bytes_after bigint;
        BEGIN
        \(lockingAccount)    IF NOT FOUND OR coalesce(cardinality(p_ids), 0) = 0
                OR (SELECT count(DISTINCT c.id) FROM unnest(p_ids) AS c (id)) <> cardinality(p_ids) THEN
                RETURN NULL;
            END IF;
            IF EXISTS (SELECT 1 FROM unnest(p_ids, p_based) AS c (id, based)
                JOIN entry e ON e.account_id = p_account AND e.id = c.id WHERE e.seq <> c.based) THEN
                RETURN NULL;
            END IF;
        \(readingUse)    SELECT v_live + coalesce(sum((NOT c.deleted)::int - coalesce((NOT e.deleted)::int, 0)), 0),
                v_bytes + coalesce(sum(octet_length(c.ciphertext) - coalesce(octet_length(e.ciphertext), 0)), 0)
                INTO v_live_after, v_bytes_after
                FROM unnest(p_ids, p_deleted, p_ciphertexts) AS c (id, deleted, ciphertext)
                LEFT JOIN entry e ON e.account_id = p_account AND e.id = c.id;
            IF v_live_after > v_limit_entries AND v_live_after > v_live OR v_bytes_after > v_limit_bytes AND v_bytes_after > v_bytes THEN
                RETURN NULL;
            END IF;
            INSERT INTO entry_history (account_id, id, seq, key_version, nonce, ciphertext, changed_at, replaced_at)
                SELECT e.account_id, e.id, e.seq, e.key_version, e.nonce, e.ciphertext, e.changed_at, p_at
                FROM entry e JOIN unnest(p_ids) AS c (id) ON c.id = e.id WHERE e.account_id = p_account AND NOT e.deleted;
            INSERT INTO entry AS e (account_id, id, seq, deleted, key_version, nonce, ciphertext, changed_at)
                SELECT p_account, c.id, v_head + c.n, c.deleted, c.key_version, c.nonce, c.ciphertext, p_at
                FROM unnest(p_ids, p_deleted, p_key_versions, p_nonces, p_ciphertexts)
                    WITH ORDINALITY AS c (id, deleted, key_version, nonce, ciphertext, n)
                ON CONFLICT (account_id, id) DO UPDATE SET seq = EXCLUDED.seq, deleted = EXCLUDED.deleted,
                    key_version = EXCLUDED.key_version, nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext,
                    changed_at = EXCLUDED.changed_at;
            UPDATE sync_account SET seq = v_head + cardinality(p_ids) WHERE id = p_account;
            PERFORM pg_notify(p_channel, p_account::text);
            RETURN v_head;
        END
        $$
        """
    }

    /// `tokens_push_device` (migration 8): the same push for the device of a token digest, the
    /// token checked in the same statement, so an authenticated push is one round trip, not two.
    /// It answers the device (unless the token is unknown or its device revoked: then every
    /// column is NULL and nothing was written) and `tokens_push`'s head (NULL when the push needs
    /// the transaction and the rules).
    static let createForDevice = """
        CREATE OR REPLACE FUNCTION tokens_push_device(p_token bytea, p_ids uuid[], p_based bigint[], p_deleted boolean[], \
        p_key_versions integer[], p_nonces bytea[], p_ciphertexts bytea[], p_at timestamptz, p_quota_entries bigint, \
        p_quota_bytes bigint, p_channel text, OUT o_head bigint, OUT o_account uuid, OUT o_device uuid, OUT o_name text, \
        OUT o_enrolled timestamptz, OUT o_device_key bytea) LANGUAGE plpgsql AS $$
        BEGIN
            SELECT d.account_id, d.id, d.name, d.enrolled_at, d.device_key INTO o_account, o_device, o_name, o_enrolled, o_device_key
                FROM device d WHERE d.token_digest = p_token AND d.revoked_at IS NULL;
            IF FOUND THEN
                o_head := tokens_push(o_account, p_ids, p_based, p_deleted, p_key_versions, p_nonces, p_ciphertexts, p_at,
                    p_quota_entries, p_quota_bytes, p_channel);
            END IF;
        END
        $$
        """
}
