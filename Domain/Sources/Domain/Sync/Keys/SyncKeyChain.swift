/// The sync keys a machine holds beyond the sync code's: the version of the code's key (one more
/// at each rotation), the earlier keys by version (entries sealed under them still open), and
/// this device's own secret, the private half of the device key a new sync key is wrapped to.
/// Every part is a secret: the vault keeps it encrypted, and its description shows none of it.
public struct SyncKeyChain: Equatable, Sendable, CustomStringConvertible {
    public let version: Int
    public let earlier: [Int: SyncKey]
    /// Nil for a machine that enrolled before device keys, until it registers one.
    public let deviceSecret: SyncKey?

    public init(version: Int = 1, earlier: [Int: SyncKey] = [:], deviceSecret: SyncKey? = nil) {
        self.version = version
        self.earlier = earlier
        self.deviceSecret = deviceSecret
    }

    /// This chain with `secret` as the device's own.
    public func with(deviceSecret secret: SyncKey) -> SyncKeyChain {
        SyncKeyChain(version: version, earlier: earlier, deviceSecret: secret)
    }

    public var description: String { "SyncKeyChain(version: \(version), earlier: \(earlier.count), redacted)" }
}

extension SyncMembership {
    /// This membership under another code and key chain (a rotated or followed sync key).
    public func with(code: SyncCode, keys: SyncKeyChain) -> SyncMembership {
        SyncMembership(code: code, server: server, enrolment: enrolment, caFile: caFile, keys: keys)
    }

    /// Every key this machine holds, by version: the earlier ones and the current one.
    public var allKeys: [Int: SyncKey] { keys.earlier.merging([keys.version: code.key]) { _, current in current } }
}
