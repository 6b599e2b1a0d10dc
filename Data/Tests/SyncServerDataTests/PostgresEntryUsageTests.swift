import Foundation
import PostgresNIO
import SyncServer
import SyncServerTestSupport
import Testing

@testable import SyncServerData

/// Each account's use of its quota is kept in its row by triggers (`PostgresEntryUsage`): it
/// equals the count over its entries after every kind of write, and a push reads it instead of
/// counting, so a push into an account of 10 000 entries reads a few entries, not 10 000.
@Suite(
    "An account's use kept in its row: PostgreSQL", .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason)
)
struct PostgresEntryUsageTests {
    let account = SyncServerStoreContract.account
    let other = SyncServerStoreContract.other
    let start = SyncServerStoreContract.start

    /// Each account's kept use and the use counted over its entries.
    static func uses(_ client: PostgresClient) async throws -> [(kept: [Int64], counted: [Int64])] {
        let rows = try await client.query(
            """
            SELECT a.live_entries, a.stored_bytes, count(e.id) FILTER (WHERE NOT e.deleted), coalesce(sum(octet_length(e.ciphertext)), 0)::bigint \
            FROM sync_account a LEFT JOIN entry e ON e.account_id = a.id GROUP BY a.id ORDER BY a.id
            """, logger: TestPostgres.logger)
        var uses: [(kept: [Int64], counted: [Int64])] = []
        for try await (live, bytes, counted, countedBytes) in rows.decode((Int64, Int64, Int64, Int64).self) {
            uses.append(([live, bytes], [counted, countedBytes]))
        }
        return uses
    }

    @Test(
        "after pushes in one statement and by the rules, deletions, retries, conflicts, the purge of tombstones and an account deleted, the kept use is the counted one"
    )
    func keptIsCounted() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            // A fixed walk (an LCG from a fixed seed): the same writes at every run.
            var state: UInt64 = 7
            func next(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int(state >> 33) % bound
            }
            var sequences: [UInt8: Int64] = [:]
            for step in 0..<60 {
                let target = step.isMultiple(of: 5) ? other : account
                let entries = (0...next(4)).map { _ in UInt8(1 + next(8)) }
                let changes = entries.map { entry in
                    // Mostly based on what is stored, sometimes stale (a conflict), sometimes a deletion.
                    let based = next(4) > 0 ? (sequences[entry] ?? 0) : 0
                    return ServerSamples.change(entry, basedOn: based, String(repeating: "x", count: 1 + next(40)), deleted: next(4) == 0)
                }
                let results = try await store.push(changes, to: target, at: start.addingTimeInterval(Double(step)), quota: .unlimited)
                if target == account {
                    for (change, result) in zip(changes, results) {
                        if case .applied(let sequence) = result { sequences[change.id.uuid.uuid.15] = sequence }
                    }
                }
                for use in try await Self.uses(client) { #expect(use.kept == use.counted, "step \(step)") }
            }
            #expect(try await store.purgeTombstones(changedBefore: start.addingTimeInterval(1_000)) > 0)
            for use in try await Self.uses(client) { #expect(use.kept == use.counted, "after the purge") }
            #expect(try await store.deleteAccount(other))
            let left = try await Self.uses(client)
            #expect(left.count == 1 && left.first?.kept == left.first?.counted)
        }
    }

    /// Rows of `entry` read (sequential and through indexes) by what `body` runs in one
    /// transaction on one connection, from PostgreSQL's own counters of that transaction.
    static func entryRowsRead(_ client: PostgresClient, _ body: (PostgresConnection) async throws -> Void) async throws -> Int64 {
        try await client.withTransaction(logger: TestPostgres.logger) { connection in
            try await body(connection)
            let rows = try await connection.query(
                "SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables WHERE relid = 'entry'::regclass",
                logger: TestPostgres.logger)
            return try await rows.decode(Int64.self).collected().first ?? 0
        }
    }

    @Test("a push into an account of 10 000 entries reads the entries it names, not the account; counting its use would read all")
    func pushCostsItsChanges() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            try await PostgresPullCostTests.fill(client)
            let change = ServerSamples.change(1, "new")
            let payloads = PayloadColumns([change.payload])
            let read = try await Self.entryRowsRead(client) { connection in
                let rows = try await connection.query(
                    PostgresStatements.query(
                        PostgresStatements.push, account.uuid, [change.id.uuid], [Int64(0)], payloads.deleted, payloads.keyVersions,
                        payloads.nonces, payloads.ciphertexts, start, Int64(100_000), Int64(100_000_000), "test_channel"),
                    logger: TestPostgres.logger)
                #expect(try await rows.decode(Int64?.self).collected().first == .some(Int64(PostgresPullCostTests.entries)))
            }
            #expect(read < 10, "\(read) rows of entry read")
            // The measure sees a whole account read when one is: counting its use as the push did.
            let counting = try await Self.entryRowsRead(client) { connection in
                _ = try await connection.query(
                    "SELECT count(*), sum(octet_length(ciphertext)) FROM entry WHERE account_id = \(account.uuid)",
                    logger: TestPostgres.logger
                ).collected()
            }
            #expect(counting >= Int64(PostgresPullCostTests.entries))
            for use in try await Self.uses(client) { #expect(use.kept == use.counted) }
        }
    }
}
