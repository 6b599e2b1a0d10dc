import Domain
import DomainTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

@testable import DataLayer

/// What a join writes: every account it receives, added in one batch.
@Suite("A join's writes")
struct VaultSyncJoinTests {
    typealias Machine = VaultSyncStoreTests.Machine

    @Test("a join adds the accounts it receives in one batch: the last sort order is looked up once, not once an account")
    func joinAddsInOneBatch() async throws {
        let remote = InMemorySyncRemote()
        let first = try await Machine(accounts: (1...40).map { VaultFolder.account($0) })
        try await first.join(device: 1)
        _ = try await first.sync(remote)
        let second = try await Machine()
        try await second.join(device: 2, joining: true)
        let lookups = Mutex(0)
        try await second.vault.database.write { db in
            db.trace { event in
                if case .statement(let statement) = event, statement.sql.contains("MAX(sort_order)") { lookups.withLock { $0 += 1 } }
            }
        }
        _ = try await second.sync(remote)
        #expect(try await second.content() == first.content())
        #expect(lookups.withLock { $0 } == 1)
        _ = try await second.sync(remote)
        #expect(lookups.withLock { $0 } == 1, "an idle round adds nothing, and looks nothing up")
    }
}
