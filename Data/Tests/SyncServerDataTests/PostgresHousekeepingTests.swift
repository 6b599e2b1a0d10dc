import Foundation
import PostgresNIO
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

/// Housekeeping against the pushes running beside it, on PostgreSQL: it takes its locks in the
/// order a push does (the account first, then its entries), so neither ever waits for the other
/// in a cycle.
@Suite("Sync server housekeeping: PostgreSQL", .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason))
struct PostgresHousekeepingTests {
    @Test("a tombstone purge while a push holds the account and revives that entry: no deadlock, and the revived entry stays")
    func purgeBesideAPush() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            let account = SyncServerStoreContract.account
            let start = SyncServerStoreContract.start
            _ = try await store.push([ServerSamples.change(1, "kept")], to: account, at: start)
            _ = try await store.push([ServerSamples.change(1, basedOn: 1, "gone", deleted: true)], to: account, at: start)
            try await client.withConnection { push in
                // A push's first statement: the account is locked until its transaction ends.
                try await push.query("BEGIN", logger: TestPostgres.logger)
                try await push.query("SELECT id FROM sync_account WHERE id = \(account.uuid) FOR UPDATE", logger: TestPostgres.logger)
                try await withThrowingTaskGroup(of: Int?.self) { group in
                    group.addTask { try await store.purgeTombstones(changedBefore: start.addingTimeInterval(60)) }
                    group.addTask {
                        try await Self.waitForALockWait(client)
                        // The push's write revives the tombstone; the purge must leave it.
                        try await push.query(
                            """
                            UPDATE entry SET deleted = false, seq = 3, changed_at = \(start.addingTimeInterval(120)) \
                            WHERE account_id = \(account.uuid) AND id = \(ServerSamples.uuid(1))
                            """, logger: TestPostgres.logger)
                        try await push.query("UPDATE sync_account SET seq = 3 WHERE id = \(account.uuid)", logger: TestPostgres.logger)
                        try await push.query("COMMIT", logger: TestPostgres.logger)
                        return nil
                    }
                    let purged = try await group.reduce(into: [Int]()) { if let count = $1 { $0.append(count) } }
                    #expect(purged == [0])
                }
            }
            #expect(try await store.changes(of: account, after: 0, limit: 10).map(\.sequence) == [3])
        }
    }

    /// Waits until some session waits for a lock (the purge, behind the push's): polled, at most
    /// 30 s, then the test fails rather than hangs.
    private static func waitForALockWait(_ client: PostgresClient) async throws {
        for _ in 0..<600 {
            let rows = try await client.query(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
                logger: TestPostgres.logger)
            for try await count in rows.decode(Int64.self) where count > 0 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("no session ever waited for the push's lock")
    }
}
