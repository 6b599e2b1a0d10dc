import Foundation
import SyncServer
import SyncServerTestSupport
import Testing

/// The contract's clauses for the sync key: device keys and rotation.
extension SyncServerStoreContract {
    /// A device key is kept with its device, given once (the same key again is fine), and read
    /// back wherever the device is.
    static func deviceKeys(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        var first = device(1)
        first.deviceKey = [1, 1]
        #expect(try await store.addDevice(first, limit: 5))
        #expect(try await store.addDevice(device(2), limit: 5))
        #expect(try await store.device(withToken: SecretDigest(bytes: [1]))?.deviceKey == [1, 1])
        #expect(try await store.device(withToken: SecretDigest(bytes: [2]))?.deviceKey == nil)
        #expect(try await store.setDeviceKey([2, 2], for: device(2).id, of: account))
        #expect(try await store.setDeviceKey([2, 2], for: device(2).id, of: account))
        #expect(try await !store.setDeviceKey([3, 3], for: device(2).id, of: account))
        #expect(try await !store.setDeviceKey([3, 3], for: device(1).id, of: account))
        #expect(try await !store.setDeviceKey([3, 3], for: device(9).id, of: account))
        #expect(try await !store.setDeviceKey([3, 3], for: device(1).id, of: other))
        #expect(try await store.devices(of: account).map(\.deviceKey) == [[1, 1], [2, 2]])
    }

    /// A rotation moves the account one version on, replaces its auth key and key ring, revokes
    /// the devices it names and keeps each wrapped key; at another version it changes nothing.
    static func keyRotation(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        for n in UInt8(1)...3 { #expect(try await store.addDevice(device(n), limit: 5)) }
        #expect(try await store.account(account)?.keyVersion == 1)
        #expect(try await store.wrappedKey(for: device(1).id, of: account) == nil)
        let later = start.addingTimeInterval(60)
        let rotation = SyncKeyRotationRecord(
            keyVersion: 2, authKeyDigest: SecretDigest(bytes: [7]), keyRing: [4, 4], revoke: [device(3).id],
            wrapped: [device(1).id: [5], device(2).id: [6]])
        let skipping = SyncKeyRotationRecord(
            keyVersion: 3, authKeyDigest: SecretDigest(bytes: [7]), keyRing: nil, revoke: [device(3).id], wrapped: [:])
        #expect(try await !store.rotateKey(skipping, of: account, at: later))
        #expect(try await store.devices(of: account).allSatisfy { !$0.isRevoked })
        #expect(try await store.rotateKey(rotation, of: account, at: later))
        let rotated = try #require(try await store.account(account))
        #expect(rotated.keyVersion == 2 && rotated.keyRing == [4, 4] && rotated.authKeyDigest == SecretDigest(bytes: [7]))
        #expect(try await store.pullBounds(of: account) == PullBounds(horizon: 0, keyVersion: 2))
        #expect(try await store.devices(of: account).map(\.revokedAt) == [nil, nil, later])
        #expect(try await store.wrappedKey(for: device(2).id, of: account) == WrappedSyncKey(keyVersion: 2, bytes: [6]))
        #expect(try await store.wrappedKey(for: device(3).id, of: account) == nil)
        #expect(try await store.wrappedKey(for: device(2).id, of: other) == nil)
        // The same rotation again: the account is past it.
        #expect(try await !store.rotateKey(rotation, of: account, at: later))
        let third = SyncKeyRotationRecord(
            keyVersion: 3, authKeyDigest: SecretDigest(bytes: [8]), keyRing: nil, revoke: [], wrapped: [device(1).id: [9]])
        #expect(try await store.rotateKey(third, of: account, at: later))
        #expect(try await store.account(account)?.keyRing == nil)
        #expect(try await store.wrappedKey(for: device(1).id, of: account) == WrappedSyncKey(keyVersion: 3, bytes: [9]))
        #expect(try await store.wrappedKey(for: device(2).id, of: account) == WrappedSyncKey(keyVersion: 2, bytes: [6]))
        #expect(try await store.account(other)?.keyVersion == 1)
    }

    /// A push past the account's quota is refused whole, nothing stored; one that frees space is
    /// not; another account's use does not count.
    static func quota(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        _ = try await store.push([ServerSamples.change(9, "theirs")], to: other, at: start)
        let quota = StorageQuota(entries: 2, bytes: 1000)
        #expect(
            try await store.push([ServerSamples.change(1, "a"), ServerSamples.change(2, "b")], to: account, at: start, quota: quota)
                == [.applied(sequence: 1), .applied(sequence: 2)])
        await #expect(throws: SyncServerError.quotaExceeded(quota)) {
            try await store.push(
                [ServerSamples.change(3, "c"), ServerSamples.change(1, basedOn: 1, "a2")], to: account, at: start, quota: quota)
        }
        #expect(try await store.head(of: account) == 2)
        #expect(try await store.changes(of: account, after: 0, limit: 10).map(\.sequence) == [1, 2])
        // Deleting one makes room for another, in one push.
        #expect(
            try await store.push(
                [ServerSamples.change(1, basedOn: 1, "", deleted: true), ServerSamples.change(3, "c")], to: account, at: start, quota: quota
            )
                == [.applied(sequence: 3), .applied(sequence: 4)])
        let tight = StorageQuota(entries: 10, bytes: 3)
        await #expect(throws: SyncServerError.quotaExceeded(tight)) {
            try await store.push([ServerSamples.change(4, "dddd")], to: account, at: start, quota: tight)
        }
    }
}
