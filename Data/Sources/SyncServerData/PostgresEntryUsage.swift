/// Each account's use of its quota (live entries, bytes of ciphertext, tombstones' too), kept in
/// its row (`sync_account.live_entries`, `stored_bytes`, migration 9) by triggers on `entry`, so a
/// push reads it with the account's lock instead of counting the account's entries: its cost is
/// its changes, not the account's size. Triggers rather than each writer's own arithmetic: every
/// statement that writes entries (a push, the housekeeping's purge, an operator's deletion, an
/// older server instance beside a newer one) keeps the counts, whoever runs it. One trigger per
/// kind of write, each once per statement over the rows it wrote (its transition tables), so a
/// push of 100 changes updates the account's row once, not 100 times.
enum PostgresEntryUsage {
    /// The columns, filled from the entries as they are.
    static let addColumns = """
        ALTER TABLE sync_account ADD COLUMN live_entries bigint NOT NULL DEFAULT 0, ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0
        """
    static let fill = """
        UPDATE sync_account a SET live_entries = u.live, stored_bytes = u.bytes FROM (SELECT account_id, \
        count(*) FILTER (WHERE NOT deleted) AS live, coalesce(sum(octet_length(ciphertext)), 0) AS bytes \
        FROM entry GROUP BY account_id) u WHERE a.id = u.account_id
        """

    /// Adds the rows of `added` to their accounts' use and takes those of `removed` off (either
    /// may be absent: an insertion has no old rows, a deletion no new ones).
    static func function(named name: String, added: String?, removed: String?) -> String {
        let parts = [
            added.map { "SELECT account_id, (NOT deleted)::int AS live, octet_length(ciphertext)::bigint AS bytes FROM \($0)" },
            removed.map { "SELECT account_id, -(NOT deleted)::int AS live, -octet_length(ciphertext)::bigint AS bytes FROM \($0)" },
        ].compactMap { $0 }
        return """
            CREATE OR REPLACE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE sync_account a SET live_entries = a.live_entries + d.live, stored_bytes = a.stored_bytes + d.bytes
                    FROM (SELECT account_id, sum(live) AS live, sum(bytes) AS bytes FROM (\(parts.joined(separator: " UNION ALL "))) c
                    GROUP BY account_id) d WHERE a.id = d.account_id AND (d.live <> 0 OR d.bytes <> 0);
                RETURN NULL;
            END
            $$
            """
    }

    static let migration: [String] = [
        addColumns,
        fill,
        function(named: "tokens_entries_added", added: "added", removed: nil),
        function(named: "tokens_entries_changed", added: "after_change", removed: "before_change"),
        function(named: "tokens_entries_removed", added: nil, removed: "removed"),
        """
        CREATE TRIGGER entry_use_added AFTER INSERT ON entry REFERENCING NEW TABLE AS added \
        FOR EACH STATEMENT EXECUTE FUNCTION tokens_entries_added()
        """,
        """
        CREATE TRIGGER entry_use_changed AFTER UPDATE ON entry REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change \
        FOR EACH STATEMENT EXECUTE FUNCTION tokens_entries_changed()
        """,
        """
        CREATE TRIGGER entry_use_removed AFTER DELETE ON entry REFERENCING OLD TABLE AS removed \
        FOR EACH STATEMENT EXECUTE FUNCTION tokens_entries_removed()
        """,
        PostgresPushFunction.createCounted,
    ]
}
