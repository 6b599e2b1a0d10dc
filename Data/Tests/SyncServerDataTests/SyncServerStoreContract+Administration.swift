import Foundation
import SyncServer
import SyncServerTestSupport
import Testing

extension SyncServerStoreContract {
    /// Administration: each account's devices and storage, oldest first; a deleted account
    /// leaves nothing behind (its id can be opened again, empty).
    static func administration(_ store: any SyncServerStore & SyncServerAdministration) async throws {
        try await seeded(store)
        #expect(try await store.addDevice(device(1), limit: 5))
        #expect(try await store.addDevice(device(2), limit: 5))
        #expect(try await store.revokeDevice(device(1).id, of: account, at: start))
        _ = try await store.push([ServerSamples.change(1, "abc"), ServerSamples.change(2, "de")], to: account, at: start)
        _ = try await store.push(
            [ServerSamples.change(1, basedOn: 1, "abcd"), ServerSamples.change(2, basedOn: 2, "", deleted: true)], to: account,
            at: start.addingTimeInterval(30))
        let summaries = try await store.accountSummaries()
        #expect(summaries.map(\.id) == [account, other])
        #expect(try await store.accountIDs() == [account, other])
        #expect(
            summaries.first
                == AccountSummary(
                    id: account, createdAt: start, activeDevices: 1, revokedDevices: 1, usage: StorageUsage(entries: 1, bytes: 4),
                    lastChange: start.addingTimeInterval(30)))
        #expect(
            summaries.last
                == AccountSummary(
                    id: other, createdAt: start, activeDevices: 0, revokedDevices: 0, usage: StorageUsage(entries: 0, bytes: 0),
                    lastChange: nil))

        #expect(try await store.deleteAccount(account))
        #expect(try await !store.deleteAccount(account))
        #expect(try await store.accountSummaries().map(\.id) == [other])
        #expect(try await store.accountIDs() == [other])
        #expect(try await store.account(account) == nil)
        #expect(try await store.device(withToken: SecretDigest(bytes: [2])) == nil)
        try await store.createAccount(SyncAccountRecord(id: account, authKeyDigest: SecretDigest(bytes: [1]), createdAt: start))
        #expect(try await store.devices(of: account).isEmpty)
        #expect(try await store.changes(of: account, after: 0, limit: 10).isEmpty)
        #expect(try await store.earlierEntries(of: account, after: 0, limit: 10).isEmpty)
        #expect(try await store.head(of: account) == 0)
    }

    /// Invitations: taken once, by one account (again by the same one: a retried request), never
    /// after they expire; an unknown one is never taken.
    static func invitations(_ store: any SyncServerStore & SyncServerAdministration) async throws {
        func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }
        let first = SecretDigest(bytes: [7])
        let second = SecretDigest(bytes: [8])
        #expect(try await !store.takeInvitation(first, for: account, at: start))
        try await store.addInvitation(first, createdAt: start, expiresAt: at(60))
        try await store.addInvitation(second, createdAt: start, expiresAt: at(60))
        #expect(try await store.takeInvitation(first, for: account, at: at(1)))
        #expect(try await store.takeInvitation(first, for: account, at: at(2)))
        #expect(try await !store.takeInvitation(first, for: other, at: at(2)))
        #expect(try await !store.takeInvitation(second, for: other, at: at(60)))
        #expect(try await store.takeInvitation(second, for: other, at: at(59)))
    }

    /// When each device was last seen: kept per device, never moved back (instances write their
    /// own, in any order), unknown devices skipped; the account's summary says the latest.
    static func activity(_ store: any SyncServerStore & SyncServerAdministration) async throws {
        try await seeded(store)
        for n in UInt8(1)...2 { #expect(try await store.addDevice(device(n), limit: 5)) }
        #expect(try await store.devices(of: account).map(\.lastSeenAt) == [nil, nil])
        let later = start.addingTimeInterval(600)
        let earlier = start.addingTimeInterval(60)
        try await store.recordActivity([
            DeviceSeen(account: account, device: device(1).id, at: later),
            DeviceSeen(account: other, device: device(2).id, at: later),
            DeviceSeen(account: account, device: device(9).id, at: later),
        ])
        try await store.recordActivity([DeviceSeen(account: account, device: device(1).id, at: earlier)])
        try await store.recordActivity([])
        #expect(try await store.devices(of: account).map(\.lastSeenAt) == [later, nil])
        let summary = try #require(try await store.accountSummaries().first { $0.id == account })
        #expect(summary.lastSeen == later)
    }

    /// An operator's quota for one account replaces the server's, part by part, from its next
    /// push; the other account keeps the server's; back to the default, the server's holds again.
    static func accountQuota(_ store: any SyncServerStore & SyncServerAdministration) async throws {
        try await seeded(store)
        let server = StorageQuota(entries: 1, bytes: 1000)
        #expect(try await store.accountSummaries().first { $0.id == account }?.quota == .serverDefault)
        #expect(try await store.setQuota(AccountQuota(entries: 3), of: account))
        #expect(try await !store.setQuota(AccountQuota(entries: 3), of: SyncAccountID(ServerSamples.uuid(99, high: 0xEE))))
        #expect(try await store.accountSummaries().first { $0.id == account }?.quota == AccountQuota(entries: 3))
        let two = [ServerSamples.change(1, "a"), ServerSamples.change(2, "b")]
        #expect(try await store.push(two, to: account, at: start, quota: server) == [.applied(sequence: 1), .applied(sequence: 2)])
        await #expect(throws: SyncServerError.quotaExceeded(server)) { try await store.push(two, to: other, at: start, quota: server) }
        #expect(try await store.setQuota(AccountQuota(entries: 3, bytes: 2), of: account))
        await #expect(throws: SyncServerError.quotaExceeded(StorageQuota(entries: 3, bytes: 2))) {
            try await store.push([ServerSamples.change(3, "c")], to: account, at: start, quota: server)
        }
        #expect(try await store.setQuota(.serverDefault, of: account))
        await #expect(throws: SyncServerError.quotaExceeded(server)) {
            try await store.push([ServerSamples.change(3, "c")], to: account, at: start, quota: server)
        }
        #expect(try await store.head(of: account) == 2)
    }
}
