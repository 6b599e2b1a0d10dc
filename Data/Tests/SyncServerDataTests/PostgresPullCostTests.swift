import Foundation
import PostgresNIO
import Testing

@testable import SyncServerData

/// A pull from a recent cursor costs the changes after it, not the account's size: in an
/// account of 10 000 entries, PostgreSQL's own account of the page queries (EXPLAIN ANALYZE: the
/// pull's first read, with its token, and a later page) shows the entries read through the
/// sequence index, only those after the cursor. Dropping the index shows the check can fail:
/// the same query then reads the whole account.
@Suite("A pull's cost on PostgreSQL", .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason))
struct PostgresPullCostTests {
    static let entries = 10_000
    static let changes = 5

    static let token = Data([0x70, 0x75, 0x6C, 0x6C])

    /// The account's entries at sequences 1…`entries`, as pushes leave them (sequence, head),
    /// and a device whose token digest is `token`.
    static func fill(_ client: PostgresClient) async throws {
        let account = SyncServerStoreContract.account.uuid
        try await client.query(
            "INSERT INTO device (account_id, id, name, token_digest, enrolled_at) VALUES (\(account), gen_random_uuid(), 'puller', \(Self.token), now())",
            logger: TestPostgres.logger)
        try await client.query(
            """
            INSERT INTO entry (account_id, id, seq, deleted, key_version, nonce, ciphertext, changed_at) \
            SELECT \(account), gen_random_uuid(), g, false, 1, '\\x00'::bytea, '\\x00'::bytea, now() \
            FROM generate_series(1, \(Self.entries)) g
            """, logger: TestPostgres.logger)
        try await client.query("UPDATE sync_account SET seq = \(Int64(Self.entries)) WHERE id = \(account)", logger: TestPostgres.logger)
        try await client.query("ANALYZE entry", logger: TestPostgres.logger)
    }

    /// The two ways a page is read: a pull's first read (with its token) and a later page.
    enum Read: CaseIterable { case withToken, page }

    /// The `entry` nodes of the plan of `read` from `cursor`, as PostgreSQL ran it.
    static func entryScans(_ client: PostgresClient, _ read: Read, after cursor: Int64) async throws -> [[String: Any]] {
        let explain = "EXPLAIN (ANALYZE, FORMAT JSON) "
        let query =
            switch read {
            case .withToken: try PostgresStatements.query(explain + PostgresStatements.pageForToken, cursor, Int64(500), Self.token)
            case .page:
                try PostgresStatements.query(explain + PostgresStatements.page, SyncServerStoreContract.account.uuid, cursor, Int64(500))
            }
        var text = ""
        for try await line in try await client.query(query, logger: TestPostgres.logger).decode(String.self) { text += line }
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        var scans: [[String: Any]] = []
        func walk(_ node: [String: Any]) {
            if node["Relation Name"] as? String == "entry" { scans.append(node) }
            for child in node["Plans"] as? [[String: Any]] ?? [] { walk(child) }
        }
        for statement in plan { walk(try #require(statement["Plan"] as? [String: Any])) }
        return scans
    }

    /// Rows the node read: those it returned and those it read and dropped.
    static func rowsRead(_ node: [String: Any]) -> Int {
        (node["Actual Rows"] as? Int ?? 0) * (node["Actual Loops"] as? Int ?? 1) + (node["Rows Removed by Filter"] as? Int ?? 0)
    }

    @Test(
        "a pull after all but the last 5 of 10 000 entries reads 5 entries, through the sequence index",
        arguments: Read.allCases)
    func recentCursorReadsTheChanges(_ read: Read) async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            try await Self.fill(client)
            let scans = try await Self.entryScans(client, read, after: Int64(Self.entries - Self.changes))
            #expect(scans.count == 1)
            for scan in scans {
                #expect(scan["Index Name"] as? String == "entry_by_seq", "\(scan["Node Type"] ?? "?")")
                #expect(Self.rowsRead(scan) == Self.changes)
            }
        }
    }

    @Test("without the sequence index the same check sees the whole account read", arguments: Read.allCases)
    func withoutTheIndexTheCheckFails(_ read: Read) async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            try await Self.fill(client)
            try await client.query("DROP INDEX entry_by_seq", logger: TestPostgres.logger)
            try await client.query("ANALYZE entry", logger: TestPostgres.logger)
            let scans = try await Self.entryScans(client, read, after: Int64(Self.entries - Self.changes))
            #expect(scans.contains { $0["Index Name"] as? String != "entry_by_seq" })
            #expect(scans.contains { Self.rowsRead($0) >= Self.entries })
        }
    }
}
