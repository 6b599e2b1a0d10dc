import Domain
import Foundation

/// `SyncKeySealing` without cryptography, for Domain's tests: every "sealed" form holds its
/// parts in the clear, and opening checks them as the real one's keys would. It keeps
/// `SyncKeySealingContract`, as Data's real sealer does.
public struct FakeKeySealing: SyncKeySealing {
    public init() {}

    /// The "public half" is the secret itself, followed by the key it is bound to.
    public func deviceKey(secret: SyncKey, code: SyncCode) -> [UInt8] { secret.bytes + code.key.bytes }

    public func isBound(_ deviceKey: [UInt8], account: UUID, keys: [Int: SyncKey]) -> Bool {
        deviceKey.count == 64 && keys.values.contains { $0.bytes == Array(deviceKey.suffix(32)) }
    }

    public func wrap(_ key: SyncKey, version: Int, for deviceKey: [UInt8], device: UUID, account: UUID, previous: SyncKey) throws -> [UInt8]
    {
        [UInt8(truncatingIfNeeded: version)] + key.bytes + deviceKey.prefix(32) + previous.bytes + device.bytes
    }

    public func unwrap(_ wrapped: [UInt8], version: Int, device: UUID, account: UUID, secret: SyncKey, previous: [Int: SyncKey]) -> SyncKey?
    {
        guard wrapped.count == 1 + 32 * 3 + 16, wrapped[0] == UInt8(truncatingIfNeeded: version),
            Array(wrapped[33..<65]) == secret.bytes, previous.values.contains(where: { $0.bytes == Array(wrapped[65..<97]) }),
            Array(wrapped[97...]) == device.bytes
        else { return nil }
        return SyncKey(bytes: Array(wrapped[1..<33]))
    }

    public func sealRing(_ keys: [Int: SyncKey], under key: SyncKey, version: Int, account: UUID) throws -> [UInt8] {
        key.bytes + [UInt8(truncatingIfNeeded: version)]
            + keys.sorted { $0.key < $1.key }.flatMap { [UInt8(truncatingIfNeeded: $0.key)] + $0.value.bytes }
    }

    public func openRing(_ ring: [UInt8], under key: SyncKey, version: Int, account: UUID) -> [Int: SyncKey]? {
        guard ring.count >= 33, Array(ring.prefix(32)) == key.bytes, ring[32] == UInt8(truncatingIfNeeded: version),
            (ring.count - 33) % 33 == 0
        else { return nil }
        var keys: [Int: SyncKey] = [:]
        for start in stride(from: 33, to: ring.count, by: 33) {
            keys[Int(ring[start])] = SyncKey(bytes: Array(ring[(start + 1)..<(start + 33)]))
        }
        return keys
    }
}
