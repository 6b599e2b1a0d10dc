import Foundation
import PostgresNIO
import SyncServer
import SyncServerTestSupport
import Testing

@testable import SyncServerData

/// The push in one statement (`tokens_push`) takes only what Domain's rules would write: plain
/// writes within the quota. Anything else it leaves untouched for the push's transaction, which
/// the contract suite checks against the in-memory store.
@Suite("A push in one statement: PostgreSQL", .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason))
struct PostgresPushFunctionTests {
    let account = SyncServerStoreContract.account
    let start = SyncServerStoreContract.start
    let roomy = StorageQuota(entries: 100, bytes: 100_000)

    func inOneStatement(
        _ changes: [EntryChange], _ client: PostgresClient, quota: StorageQuota? = nil, account: SyncAccountID? = nil
    ) async throws -> [PushResult]? {
        try await PostgresPush(changes: changes, account: account ?? self.account, time: start, quota: quota ?? roomy)
            .inOneStatement(on: client)
    }

    @Test(
        "plain writes are applied in order at the next sequences; a change based on the stored one replaces it, kept as an earlier version")
    func plainWrites() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            let two = [ServerSamples.change(1, "abc"), ServerSamples.change(2, "de")]
            #expect(try await inOneStatement(two, client) == [.applied(sequence: 1), .applied(sequence: 2)])
            #expect(try await inOneStatement([ServerSamples.change(1, basedOn: 1, "abcd")], client) == [.applied(sequence: 3)])
            #expect(try await store.head(of: account) == 3)
            #expect(try await store.changes(of: account, after: 0, limit: 10).map(\.sequence) == [2, 3])
            #expect(try await store.earlierEntries(of: account, after: 0, limit: 10).map(\.entry.sequence) == [1])
        }
    }

    @Test(
        "by token: the device and its push in one statement; a push left to the rules writes nothing; an unknown or revoked token nothing at all"
    )
    func byToken() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            let device = SyncServerStoreContract.device(1)
            #expect(try await store.addDevice(device, limit: 5))
            func push(_ changes: [EntryChange], token: UInt8 = 1) async throws -> (device: SyncDevice, results: [PushResult]?)? {
                try await PostgresPush.inOneStatement(changes, token: SecretDigest(bytes: [token]), at: start, quota: roomy, on: client)
            }
            let first = try #require(try await push([ServerSamples.change(1, "abc")]))
            #expect(first.device == device && first.results == [.applied(sequence: 1)])
            let conflict = try #require(try await push([ServerSamples.change(1, basedOn: 0, "xyz")]))
            #expect(conflict.device == device && conflict.results == nil)
            #expect(try await push([ServerSamples.change(2, "a")], token: 9) == nil)
            #expect(try await store.revokeDevice(device.id, of: account, at: start))
            #expect(try await push([ServerSamples.change(2, "a")]) == nil)
            #expect(try await store.changes(of: account, after: 0, limit: 10).map(\.payload) == [ServerSamples.payload("abc")])
        }
    }

    @Test("a conflict, a retried push, an entry named twice, the quota passed or an account gone: nothing written, left to the rules")
    func leftToTheRules() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            #expect(try await inOneStatement([ServerSamples.change(1, "abc")], client) == [.applied(sequence: 1)])
            let cases: [(String, [EntryChange], StorageQuota?)] = [
                ("conflict", [ServerSamples.change(1, basedOn: 0, "xyz")], nil),
                ("retry", [ServerSamples.change(1, basedOn: 0, "abc")], nil),
                ("twice", [ServerSamples.change(2, "a"), ServerSamples.change(2, "b")], nil),
                ("entries", [ServerSamples.change(2, "a")], StorageQuota(entries: 1, bytes: 100_000)),
                ("bytes", [ServerSamples.change(1, basedOn: 1, "abcdef")], StorageQuota(entries: 100, bytes: 5)),
                ("empty", [], nil),
            ]
            for (name, changes, quota) in cases {
                #expect(try await inOneStatement(changes, client, quota: quota) == nil, "\(name)")
            }
            let gone = SyncAccountID(ServerSamples.uuid(99, high: 0xEE))
            #expect(try await inOneStatement([ServerSamples.change(3, "a")], client, account: gone) == nil)
            #expect(try await store.head(of: account) == 1)
            #expect(try await store.changes(of: account, after: 0, limit: 10).map(\.payload) == [ServerSamples.payload("abc")])
            // The rules decide them as always, through the store.
            #expect(
                try await store.push([ServerSamples.change(1, basedOn: 0, "abc")], to: account, at: start, quota: roomy) == [
                    .applied(sequence: 1)
                ])
        }
    }

    @Test("over a quota lowered under it, a push that shrinks the use is still taken: the quota refuses only growth")
    func shrinkingOverQuota() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            let two = [ServerSamples.change(1, "abc"), ServerSamples.change(2, "de")]
            #expect(try await inOneStatement(two, client) == [.applied(sequence: 1), .applied(sequence: 2)])
            let tight = StorageQuota(entries: 1, bytes: 1)
            #expect(
                try await inOneStatement([ServerSamples.change(2, basedOn: 2, "", deleted: true)], client, quota: tight) == [
                    .applied(sequence: 3)
                ])
            #expect(try await store.head(of: account) == 3)
        }
    }
}
