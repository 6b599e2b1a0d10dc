import Foundation
import SyncServer
import SyncServerTestSupport
import Testing

/// What a key rotation and a device key must be before the store is asked.
@Suite("Sync key rules")
struct SyncKeyRulesTests {
    let limits = SyncLimits()
    let account = SyncAccountID(ServerSamples.uuid(1, high: 0xA0))
    let at = Date(timeIntervalSince1970: 0)

    func device(_ n: UInt8, revoked: Bool = false) -> SyncDevice {
        SyncDevice(
            id: DeviceID(ServerSamples.uuid(n, high: 0xD0)), account: account, name: "d\(n)", tokenDigest: SecretDigest(bytes: [n]),
            enrolledAt: at, revokedAt: revoked ? at : nil)
    }

    func rotation(version: Int32 = 2, revoke: [UInt8] = [2], wrappedFor: [UInt8] = [3], ring: [UInt8]? = [1]) -> SyncKeyRotation {
        SyncKeyRotation(
            keyVersion: version, authKey: ServerSamples.secret(7), keyRing: ring, revoke: revoke.map { device($0).id },
            wrapped: Dictionary(uniqueKeysWithValues: wrappedFor.map { (device($0).id, [9, 9]) }))
    }

    func check(_ rotation: SyncKeyRotation, current: Int32 = 1) throws(SyncServerError) {
        try SyncKeyRules.check(
            rotation, by: device(1).id, current: current, devices: [1, 2, 3].map { device($0) } + [device(4, revoked: true)], limits: limits
        )
    }

    @Test("a rotation makes the next version, revokes other devices of the account, and wraps only for those that stay")
    func rotation() throws {
        try check(rotation())
        try check(rotation(version: 5), current: 4)
        try check(rotation(revoke: [], wrappedFor: [2, 3], ring: nil))
        #expect(throws: SyncServerError.keyConflict("the sync key is at version 2: a rotation makes version 3")) {
            try check(rotation(version: 2), current: 2)
        }
        #expect(throws: SyncServerError.keyConflict("the sync key is at version 1: a rotation makes version 2")) {
            try check(rotation(version: 3))
        }
        #expect(throws: SyncServerError.deviceNotFound) { try check(rotation(revoke: [8])) }
        #expect(throws: SyncServerError.keyConflict("a rotation does not revoke the device that sends it (leaving is revoking itself)")) {
            try check(rotation(revoke: [1]))
        }
        #expect(throws: SyncServerError.keyConflict("a device is revoked once")) { try check(rotation(revoke: [2, 2])) }
        // A key wrapped for a device that does not stay: the revoked one, one revoked before, another account's.
        for wrappedFor: [UInt8] in [[2], [4], [8]] {
            #expect(throws: SyncServerError.deviceNotFound) { try check(rotation(wrappedFor: wrappedFor)) }
        }
    }

    @Test("device keys, wrapped keys and key rings are bounded in bytes")
    func sizes() throws {
        try SyncKeyRules.checkDeviceKey(Array(repeating: 1, count: limits.deviceKeyBytes), limits: limits)
        for bad in [[], Array(repeating: UInt8(1), count: limits.deviceKeyBytes + 1)] {
            #expect(throws: SyncServerError.invalid("a device key has 1 to 255 bytes")) {
                try SyncKeyRules.checkDeviceKey(bad, limits: limits)
            }
        }
        #expect(throws: SyncServerError.invalid("a key ring has 1 to 8190 bytes")) {
            try check(rotation(ring: Array(repeating: 1, count: limits.keyRingBytes + 1)))
        }
        let big = SyncKeyRotation(
            keyVersion: 2, authKey: ServerSamples.secret(7), keyRing: nil, revoke: [],
            wrapped: [device(3).id: Array(repeating: 1, count: limits.wrappedKeyBytes + 1)])
        #expect(throws: SyncServerError.invalid("a wrapped key has 1 to 510 bytes")) { try check(big) }
    }
}

/// What one account may hold.
@Suite("Storage quota")
struct StorageQuotaTests {
    func payload(_ bytes: Int, deleted: Bool = false) -> EntryPayload {
        EntryPayload(
            isDeleted: deleted, keyVersion: 1, nonce: Array(repeating: 0, count: 12), ciphertext: Array(repeating: 1, count: bytes))
    }

    @Test("live entries and bytes are counted as a push writes; past either it is refused, unless the push frees space")
    func quota() throws {
        let quota = StorageQuota(entries: 2, bytes: 100)
        let before = StorageUsage(entries: 1, bytes: 40)
        var usage = before
        usage.write(payload(40), replacing: nil)
        #expect(usage == StorageUsage(entries: 2, bytes: 80))
        try usage.check(quota, from: before)
        usage.write(payload(30), replacing: nil)
        #expect(throws: SyncServerError.quotaExceeded(quota)) { try usage.check(quota, from: before) }
        // A delete frees an entry; a smaller version frees bytes.
        var freeing = StorageUsage(entries: 3, bytes: 150)
        let over = freeing
        freeing.write(payload(10, deleted: true), replacing: payload(50))
        #expect(freeing == StorageUsage(entries: 2, bytes: 110))
        try freeing.check(quota, from: over)
        var growing = over
        growing.write(payload(60), replacing: payload(50))
        #expect(throws: SyncServerError.quotaExceeded(quota)) { try growing.check(quota, from: over) }
    }
}
