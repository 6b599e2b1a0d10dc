import Foundation

/// A replacement of the account's sync key, as a device sends it: the new key's version (one
/// past the current) and auth key, the devices it revokes, and the new key wrapped for each
/// device that stays. Every byte but the auth key is opaque here: the server cannot open the
/// wrapped keys, the key ring, or the device keys they were sealed to.
public struct SyncKeyRotation: Equatable, Sendable {
    public let keyVersion: Int32
    /// The auth key derived from the new sync key: enrolment with the old one is refused after.
    public let authKey: SyncSecret
    /// The earlier keys, sealed under the new one (so that a machine joining later reads
    /// entries not yet sealed again); nil when the client keeps none.
    public let keyRing: [UInt8]?
    public let revoke: [DeviceID]
    /// The new key, sealed to each staying device's own key.
    public let wrapped: [DeviceID: [UInt8]]

    public init(keyVersion: Int32, authKey: SyncSecret, keyRing: [UInt8]?, revoke: [DeviceID], wrapped: [DeviceID: [UInt8]]) {
        self.keyVersion = keyVersion
        self.authKey = authKey
        self.keyRing = keyRing
        self.revoke = revoke
        self.wrapped = wrapped
    }
}

/// A rotation as the store applies it: the auth key only as its digest.
public struct SyncKeyRotationRecord: Equatable, Sendable {
    public let keyVersion: Int32
    public let authKeyDigest: SecretDigest
    public let keyRing: [UInt8]?
    public let revoke: [DeviceID]
    public let wrapped: [DeviceID: [UInt8]]

    public init(keyVersion: Int32, authKeyDigest: SecretDigest, keyRing: [UInt8]?, revoke: [DeviceID], wrapped: [DeviceID: [UInt8]]) {
        self.keyVersion = keyVersion
        self.authKeyDigest = authKeyDigest
        self.keyRing = keyRing
        self.revoke = revoke
        self.wrapped = wrapped
    }
}

/// The new key sealed for one device at one version.
public struct WrappedSyncKey: Equatable, Sendable {
    public let keyVersion: Int32
    public let bytes: [UInt8]

    public init(keyVersion: Int32, bytes: [UInt8]) {
        self.keyVersion = keyVersion
        self.bytes = bytes
    }
}

/// What a device needs to follow the account's key: the current version, the earlier keys
/// (sealed under the current one), the current key sealed for this device (nil when it was
/// never sealed for it), and the device keys of the account's unrevoked devices.
public struct SyncKeyState: Equatable, Sendable {
    public let keyVersion: Int32
    public let keyRing: [UInt8]?
    public let wrapped: WrappedSyncKey?
    public let deviceKeys: [DeviceID: [UInt8]]

    public init(keyVersion: Int32, keyRing: [UInt8]?, wrapped: WrappedSyncKey?, deviceKeys: [DeviceID: [UInt8]]) {
        self.keyVersion = keyVersion
        self.keyRing = keyRing
        self.wrapped = wrapped
        self.deviceKeys = deviceKeys
    }
}
