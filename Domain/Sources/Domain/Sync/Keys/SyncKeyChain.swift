import Foundation

/// The sync keys a machine holds beyond the sync code's: the version of the code's key (one more
/// at each rotation), the earlier keys by version (entries sealed under them still open), and
/// this device's own secret, the private half of the device key a new sync key is wrapped to,
/// and the devices this machine knows were revoked (given back to a server restored from before).
/// Every part is a secret: the vault keeps it encrypted, and its description shows none of it.
public struct SyncKeyChain: Equatable, Sendable, CustomStringConvertible {
    public let version: Int
    public let earlier: [Int: SyncKey]
    /// Nil for a machine that enrolled before device keys, until it registers one.
    public let deviceSecret: SyncKey?
    /// The account's devices this machine saw revoked (by its own rotations, or listed revoked
    /// when it replaced or followed the key). A revoked device never comes back, so this only grows.
    public let revoked: Set<UUID>

    public init(version: Int = 1, earlier: [Int: SyncKey] = [:], deviceSecret: SyncKey? = nil, revoked: Set<UUID> = []) {
        self.version = version
        self.earlier = earlier
        self.deviceSecret = deviceSecret
        self.revoked = revoked
    }

    /// This chain with `secret` as the device's own.
    public func with(deviceSecret secret: SyncKey) -> SyncKeyChain {
        SyncKeyChain(version: version, earlier: earlier, deviceSecret: secret, revoked: revoked)
    }

    /// This chain knowing `devices` revoked as well.
    public func with(revoked devices: some Sequence<UUID>) -> SyncKeyChain {
        SyncKeyChain(version: version, earlier: earlier, deviceSecret: deviceSecret, revoked: revoked.union(devices))
    }

    public var description: String { "SyncKeyChain(version: \(version), earlier: \(earlier.count), revoked: \(revoked.count), redacted)" }
}

extension SyncMembership {
    /// This membership under another code and key chain (a rotated or followed sync key).
    public func with(code: SyncCode, keys: SyncKeyChain) -> SyncMembership {
        SyncMembership(code: code, server: server, enrolment: enrolment, caFile: caFile, keys: keys)
    }

    /// Every key this machine holds, by version: the earlier ones and the current one.
    public var allKeys: [Int: SyncKey] { keys.earlier.merging([keys.version: code.key]) { _, current in current } }
}
