import Foundation
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

/// The behaviour every `SyncServerStore` must have: run against the in-memory store here, and
/// against PostgreSQL by the suite that starts one.
enum SyncServerStoreContract {
    static let account = SyncAccountID(ServerSamples.uuid(1, high: 0xA0))
    static let other = SyncAccountID(ServerSamples.uuid(2, high: 0xA0))
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func seeded(_ store: any SyncServerStore) async throws {
        for id in [account, other] {
            try await store.createAccount(
                SyncAccountRecord(id: id, authKeyDigest: SecretDigest(bytes: [1]), createdAt: start))
        }
    }

    static func device(_ n: UInt8, of account: SyncAccountID = account) -> SyncDevice {
        SyncDevice(
            id: DeviceID(ServerSamples.uuid(n, high: 0xD0)), account: account, name: "device \(n)",
            tokenDigest: SecretDigest(bytes: [n]), enrolledAt: start)
    }

    /// The generation: opaque, at most 64 characters, and the same while the data moves forward.
    static func generation(_ store: any SyncServerStore) async throws {
        let first = try await store.generation()
        #expect(!first.isEmpty && first.count <= 64)
        try await seeded(store)
        _ = try await store.push([ServerSamples.change(1, "a")], to: account, at: start)
        #expect(try await store.generation() == first)
    }

    /// Readiness: a store that can serve says so, and stays so after it has served.
    static func readiness(_ store: any SyncServerStore) async throws {
        try await store.checkReady()
        try await seeded(store)
        try await store.checkReady()
    }

    /// Accounts: an id is taken once.
    static func accounts(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        #expect(try await store.account(account)?.createdAt == start)
        await #expect(throws: SyncServerError.accountExists) {
            try await store.createAccount(SyncAccountRecord(id: account, authKeyDigest: SecretDigest(bytes: [9]), createdAt: start))
        }
        #expect(try await store.account(account)?.authKeyDigest == SecretDigest(bytes: [1]))
        #expect(try await store.account(SyncAccountID(ServerSamples.uuid(3))) == nil)
    }

    /// Devices: a limit of unrevoked ones; tokens found by digest; revocation only in the account.
    static func devices(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        #expect(try await store.addDevice(device(1), limit: 2))
        #expect(try await store.addDevice(device(2), limit: 2))
        #expect(try await !store.addDevice(device(3), limit: 2))
        #expect(try await store.device(withToken: SecretDigest(bytes: [2]))?.id == device(2).id)
        #expect(try await store.device(withToken: SecretDigest(bytes: [3])) == nil)
        #expect(try await !store.revokeDevice(device(1).id, of: other, at: start))
        #expect(try await store.revokeDevice(device(1).id, of: account, at: start.addingTimeInterval(5)))
        #expect(try await store.device(withToken: SecretDigest(bytes: [1]))?.revokedAt == start.addingTimeInterval(5))
        #expect(try await store.addDevice(device(3), limit: 2))
        #expect(try await store.devices(of: account).map(\.id) == [1, 2, 3].map { device($0).id })
        #expect(try await store.devices(of: other).isEmpty)
    }

    /// A pull's first read: a token's device and, while it is live, its account's page.
    static func tokenPages(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        #expect(try await store.addDevice(device(1), limit: 5))
        #expect(try await store.addDevice(device(2, of: other), limit: 5))
        _ = try await store.push((1...3).map { ServerSamples.change(UInt8($0), "e\($0)") }, to: account, at: start)
        let read = try #require(try await store.page(forToken: SecretDigest(bytes: [1]), after: 1, limit: 10))
        #expect(read.device == device(1))
        #expect(read.page == (try await store.page(of: account, after: 1, limit: 10)))
        #expect(read.page?.entries.map(\.sequence) == [2, 3] && read.page?.head == 3)
        // Another account's device reads only its own (empty) account.
        let theirs = try await store.page(forToken: SecretDigest(bytes: [2]), after: 0, limit: 10)
        #expect(
            theirs?.device.account == other
                && theirs?.page == StoredPage(bounds: PullBounds(horizon: 0, keyVersion: 1), entries: [], head: 0))
        #expect(try await store.page(forToken: SecretDigest(bytes: [9]), after: 0, limit: 10) == nil)
        // A revoked device: itself, saying so, and no page.
        #expect(try await store.revokeDevice(device(1).id, of: account, at: start.addingTimeInterval(5)))
        let revoked = try #require(try await store.page(forToken: SecretDigest(bytes: [1]), after: 0, limit: 10))
        #expect(revoked.device.revokedAt == start.addingTimeInterval(5) && revoked.page == nil)
    }

    /// A push by token: its device and the push applied as by account, in its own account only;
    /// an unknown token is nil, a revoked device says so and writes nothing.
    static func tokenPushes(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        #expect(try await store.addDevice(device(1), limit: 5))
        #expect(try await store.addDevice(device(2, of: other), limit: 5))
        let token = SecretDigest(bytes: [1])
        let first = try #require(try await store.push([ServerSamples.change(1, "a1")], forToken: token, at: start, quota: .unlimited))
        #expect(first == DevicePush(device: device(1), results: [.applied(sequence: 1)]))
        // Plain writes, then what the rules decide: a retry, and a conflict with the entry stored.
        let next = try await store.push(
            [ServerSamples.change(1, basedOn: 1, "a2"), ServerSamples.change(2, "b1")], forToken: token, at: start, quota: .unlimited)
        #expect(next?.results == [.applied(sequence: 2), .applied(sequence: 3)])
        let again = try await store.push(
            [ServerSamples.change(2, "b1"), ServerSamples.change(1, basedOn: 1, "a3")], forToken: token, at: start, quota: .unlimited)
        let stored = try await store.changes(of: account, after: 1, limit: 1)
        #expect(again?.results == [.applied(sequence: 3), .conflict(current: try #require(stored.first))])
        #expect(again?.device == device(1))
        #expect(try await store.head(of: account) == 3)
        #expect(try await store.head(of: other) == 0)
        // The other account's device writes its own account.
        let theirs = try await store.push([ServerSamples.change(1, "x")], forToken: SecretDigest(bytes: [2]), at: start, quota: .unlimited)
        #expect(theirs?.results == [.applied(sequence: 1)] && theirs?.device.account == other)
        #expect(
            try await store.push([ServerSamples.change(3, "c")], forToken: SecretDigest(bytes: [9]), at: start, quota: .unlimited) == nil)
        // Past the quota: refused, nothing written.
        await #expect(throws: SyncServerError.quotaExceeded(StorageQuota(entries: 2, bytes: 1_000_000))) {
            try await store.push(
                [ServerSamples.change(3, "c")], forToken: token, at: start, quota: StorageQuota(entries: 2, bytes: 1_000_000))
        }
        #expect(try await store.push([ServerSamples.change(4, "d")], forToken: token, at: start, quota: .unlimited)?.results?.count == 1)
        #expect(try await store.revokeDevice(device(1).id, of: account, at: start.addingTimeInterval(5)))
        let revoked = try #require(try await store.push([ServerSamples.change(5, "e")], forToken: token, at: start, quota: .unlimited))
        #expect(revoked.device.revokedAt == start.addingTimeInterval(5) && revoked.results == nil)
        #expect(try await store.head(of: account) == 4)
    }

    /// Pushes: compare-and-set, one sequence per write, retries applied, conflicts with the entry.
    static func pushes(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        let first = try await store.push(
            [ServerSamples.change(1, "a1"), ServerSamples.change(2, "b1")], to: account, at: start)
        #expect(first == [.applied(sequence: 1), .applied(sequence: 2)])
        // A retry of the same push: applied at the stored sequences, nothing new written.
        #expect(try await store.push([ServerSamples.change(1, "a1")], to: account, at: start) == [.applied(sequence: 1)])
        #expect(try await store.head(of: account) == 2)
        let second = try await store.push(
            [ServerSamples.change(1, basedOn: 1, "a2", nonce: 2), ServerSamples.change(2, basedOn: 0, "b-stale", nonce: 3)],
            to: account, at: start.addingTimeInterval(1))
        #expect(second.first == .applied(sequence: 3))
        guard case .conflict(let current) = second.last else {
            Issue.record("expected a conflict, got \(second)")
            return
        }
        #expect(current.sequence == 2 && current.payload == ServerSamples.payload("b1"))
        // The same entry twice in one push: decided in order, so the second is a conflict.
        let twice = try await store.push(
            [ServerSamples.change(7, "x1", nonce: 7), ServerSamples.change(7, "x2", nonce: 8)], to: account, at: start)
        #expect(twice.first == .applied(sequence: 4))
        guard case .conflict(let now) = twice.last else {
            Issue.record("expected a conflict, got \(twice)")
            return
        }
        #expect(now.sequence == 4)
        // Written twice in one push (the second based on the first): both applied, in order, and
        // the first kept as an earlier version.
        let chained = try await store.push(
            [ServerSamples.change(8, "y1", nonce: 9), ServerSamples.change(8, basedOn: 5, "y2", nonce: 10)], to: account, at: start)
        #expect(chained == [.applied(sequence: 5), .applied(sequence: 6)])
        #expect(try await store.changes(of: account, after: 4, limit: 10).map(\.payload) == [ServerSamples.payload("y2", nonce: 10)])
        let kept = try await store.earlierEntries(of: account, after: 0, limit: 10).filter { $0.entry.id == EntryID(ServerSamples.uuid(8)) }
        #expect(kept.map(\.entry.sequence) == [5])
        // Sequences are per account.
        #expect(try await store.push([ServerSamples.change(1, "x")], to: other, at: start) == [.applied(sequence: 1)])
        #expect(try await store.head(of: account) == 6)
    }

    /// Pulls: after a cursor, in order, bounded; only the account's own entries.
    static func pulls(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        _ = try await store.push((1...5).map { ServerSamples.change(UInt8($0), "e\($0)") }, to: account, at: start)
        _ = try await store.push([ServerSamples.change(2, basedOn: 2, "e2b", nonce: 2)], to: account, at: start)
        _ = try await store.push([ServerSamples.change(9, "theirs")], to: other, at: start)
        let all = try await store.changes(of: account, after: 0, limit: 100)
        #expect(all.map(\.sequence) == [1, 3, 4, 5, 6])
        #expect(all.last?.id == EntryID(ServerSamples.uuid(2)))
        #expect(try await store.changes(of: account, after: 3, limit: 2).map(\.sequence) == [4, 5])
        #expect(try await store.changes(of: account, after: 6, limit: 100).isEmpty)
        #expect(try await store.changes(of: other, after: 0, limit: 100).map(\.payload) == [ServerSamples.payload("theirs")])
        // A page: the same entries, with the bounds and the head.
        let bounds = PullBounds(horizon: 0, keyVersion: 1)
        let page = try await store.page(of: account, after: 3, limit: 2)
        #expect(page == StoredPage(bounds: bounds, entries: Array(all[2...3]), head: 6))
        #expect(try await store.page(of: account, after: 6, limit: 100) == StoredPage(bounds: bounds, entries: [], head: 6))
        #expect(try await store.page(of: other, after: 0, limit: 100).entries.map(\.payload) == [ServerSamples.payload("theirs")])
    }

    /// Tombstones: purged when old, raising the horizon; live entries and new tombstones stay.
    static func tombstones(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        _ = try await store.push([ServerSamples.change(1, "a"), ServerSamples.change(2, "b")], to: account, at: start)
        _ = try await store.push([ServerSamples.change(1, basedOn: 1, "", deleted: true)], to: account, at: start)
        _ = try await store.push(
            [ServerSamples.change(2, basedOn: 2, "", deleted: true)], to: account, at: start.addingTimeInterval(100))
        #expect(try await store.pullBounds(of: account).horizon == 0)
        #expect(try await store.purgeTombstones(changedBefore: start.addingTimeInterval(50)) == 1)
        #expect(try await store.pullBounds(of: account) == PullBounds(horizon: 3, keyVersion: 1))
        #expect(try await store.page(of: account, after: 3, limit: 100).bounds == PullBounds(horizon: 3, keyVersion: 1))
        #expect(try await store.changes(of: account, after: 0, limit: 100).map(\.sequence) == [4])
        #expect(try await store.pullBounds(of: other).horizon == 0)
        // A change to the forgotten entry is written as new (an edit beats a delete).
        #expect(
            try await store.push([ServerSamples.change(1, basedOn: 3, "back", nonce: 5)], to: account, at: start)
                == [.applied(sequence: 5)])
    }

    /// Enrolment attempts: counted per account and per address within the window.
    static func attempts(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        var last = EnrolmentAttempts(forAccount: 0, fromAddress: 0)
        for second in 0..<3 {
            let time = start.addingTimeInterval(Double(second))
            last = try await store.recordEnrolmentAttempt(account: account, address: "192.0.2.1", at: time, since: start)
        }
        #expect(last == EnrolmentAttempts(forAccount: 3, fromAddress: 3))
        let fromElsewhere = try await store.recordEnrolmentAttempt(
            account: other, address: "192.0.2.1", at: start.addingTimeInterval(3), since: start)
        #expect(fromElsewhere == EnrolmentAttempts(forAccount: 1, fromAddress: 4))
        let later = try await store.recordEnrolmentAttempt(
            account: account, address: "198.51.100.7", at: start.addingTimeInterval(10), since: start.addingTimeInterval(2))
        #expect(later == EnrolmentAttempts(forAccount: 2, fromAddress: 1))
    }

    /// Accounts opened: counted per address and in all within the window.
    static func creations(_ store: any SyncServerStore) async throws {
        var last = AccountCreations(fromAddress: 0, inAll: 0)
        for second in 0..<3 {
            last = try await store.recordAccountCreation(address: "192.0.2.1", at: start.addingTimeInterval(Double(second)), since: start)
        }
        #expect(last == AccountCreations(fromAddress: 3, inAll: 3))
        let elsewhere = try await store.recordAccountCreation(address: "198.51.100.7", at: start.addingTimeInterval(3), since: start)
        #expect(elsewhere == AccountCreations(fromAddress: 1, inAll: 4))
        let later = try await store.recordAccountCreation(
            address: "192.0.2.1", at: start.addingTimeInterval(10), since: start.addingTimeInterval(2))
        #expect(later == AccountCreations(fromAddress: 2, inAll: 3))
    }

    /// A push to an account that does not exist is refused as unauthorized (the rules' error,
    /// not the database's), and stores nothing.
    static func pushToNoAccount(_ store: any SyncServerStore) async throws {
        let nobody = SyncAccountID(ServerSamples.uuid(99, high: 0xEE))
        await #expect(throws: SyncServerError.unauthorized) {
            try await store.push([ServerSamples.change(1, "lost")], to: nobody, at: start)
        }
        #expect(try await store.changes(of: nobody, after: 0, limit: 10).isEmpty)
    }

    /// Every clause, by name, for a parameterised test.
    static let clauses: [(name: String, run: @Sendable (any SyncServerStore & SyncServerAdministration) async throws -> Void)] = [
        ("accounts", accounts), ("devices", devices), ("pushes", pushes), ("token pages", tokenPages), ("token pushes", tokenPushes),
        ("push to no account", pushToNoAccount), ("pulls", pulls),
        ("tombstones", tombstones), ("enrolment attempts", attempts), ("account creations", creations),
        ("generation", generation), ("device keys", deviceKeys), ("key rotation", keyRotation), ("storage quota", quota),
        ("history", history), ("readiness", readiness), ("administration", administration),
        ("invitations", invitations), ("device activity", activity),
        ("quota per account", accountQuota),
    ]
}

@Suite("Sync server store contract: in memory")
struct InMemorySyncServerStoreTests {
    @Test("the in-memory store keeps the contract", arguments: SyncServerStoreContract.clauses.map(\.name))
    func contract(_ clause: String) async throws {
        let run = try #require(SyncServerStoreContract.clauses.first { $0.name == clause }?.run)
        try await run(InMemorySyncServerStore())
    }
}
