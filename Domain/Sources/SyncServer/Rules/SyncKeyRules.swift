/// What a key rotation and a device key must be, before the store is asked: sizes within the
/// limits, the next version, and devices that belong to the account.
public enum SyncKeyRules {
    public static func checkDeviceKey(_ key: [UInt8], limits: SyncLimits) throws(SyncServerError) {
        guard (1...limits.deviceKeyBytes).contains(key.count) else {
            throw .invalid("a device key has 1 to \(limits.deviceKeyBytes) bytes")
        }
    }

    /// A rotation by `caller` of an account at `current` whose devices are `devices`: the next
    /// version; it revokes other devices of the account (not the caller: leaving is a revoke of
    /// its own) and wraps the key only for devices that stay. What the document's schema cannot
    /// say is refused as a conflict or a device not found, never as a malformed request.
    public static func check(
        _ rotation: SyncKeyRotation, by caller: DeviceID, current: Int32, devices: [SyncDevice], limits: SyncLimits
    ) throws(SyncServerError) {
        if let ring = rotation.keyRing, !(1...limits.keyRingBytes).contains(ring.count) {
            throw .invalid("a key ring has 1 to \(limits.keyRingBytes) bytes")
        }
        guard rotation.wrapped.values.allSatisfy({ (1...limits.wrappedKeyBytes).contains($0.count) }) else {
            throw .invalid("a wrapped key has 1 to \(limits.wrappedKeyBytes) bytes")
        }
        guard !rotation.revoke.contains(caller) else {
            throw .keyConflict("a rotation does not revoke the device that sends it (leaving is revoking itself)")
        }
        guard Set(rotation.revoke).count == rotation.revoke.count else { throw .keyConflict("a device is revoked once") }
        guard rotation.keyVersion == current + 1 else {
            throw .keyConflict("the sync key is at version \(current): a rotation makes version \(current + 1)")
        }
        let known = Set(devices.map(\.id))
        guard rotation.revoke.allSatisfy(known.contains) else { throw .deviceNotFound }
        let staying = Set(devices.filter { !$0.isRevoked }.map(\.id)).subtracting(rotation.revoke)
        guard rotation.wrapped.keys.allSatisfy(staying.contains) else { throw .deviceNotFound }
    }
}
