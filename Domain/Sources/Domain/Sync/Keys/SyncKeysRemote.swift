import Foundation

/// The account's sync key as the server keeps it for one device: all of it opaque there (Data
/// seals and opens it; see `SyncKeySealing`).
public struct RemoteKeyState: Equatable, Sendable {
    public let version: Int
    /// The earlier keys, sealed under the current one; nil when none were kept.
    public let keyRing: [UInt8]?
    /// The current key, wrapped to this device's key; nil when it was not.
    public let wrapped: [UInt8]?
    /// The device keys of the account's unrevoked devices.
    public let deviceKeys: [UUID: [UInt8]]

    public init(version: Int, keyRing: [UInt8]?, wrapped: [UInt8]?, deviceKeys: [UUID: [UInt8]]) {
        self.version = version
        self.keyRing = keyRing
        self.wrapped = wrapped
        self.deviceKeys = deviceKeys
    }
}

/// A rotation as a machine sends it: the new code (Data derives its auth key), its version, the
/// earlier keys sealed under it, the devices revoked, and the new key wrapped for each that stays.
public struct RemoteKeyRotation: Sendable {
    public let code: SyncCode
    public let version: Int
    public let keyRing: [UInt8]
    public let revoke: [UUID]
    public let wrapped: [UUID: [UInt8]]

    public init(code: SyncCode, version: Int, keyRing: [UInt8], revoke: [UUID], wrapped: [UUID: [UInt8]]) {
        self.code = code
        self.version = version
        self.keyRing = keyRing
        self.revoke = revoke
        self.wrapped = wrapped
    }
}

/// The server's side of the sync key, as an enrolled device reaches it. Throws SyncError only.
public protocol SyncKeysRemote: Sendable {
    func keyState() async throws(SyncError) -> RemoteKeyState
    /// `.keyConflict` when another machine rotated first.
    func rotate(_ rotation: RemoteKeyRotation) async throws(SyncError)
    /// Gives this device its device key (once; the same again is fine).
    func registerDeviceKey(_ key: [UInt8]) async throws(SyncError)
}

/// The cryptography of key rotation (Data: X25519, HKDF-SHA256, AES-GCM, HMAC-SHA256). A device
/// key is bound to a sync key the server does not hold, so the server cannot put its own in; a
/// wrapped key is bound to the key it replaces, so the server cannot hand out one of its own.
public protocol SyncKeySealing: Sendable {
    /// The public half of `secret`, bound to `code`'s key, for the server to keep.
    func deviceKey(secret: SyncKey, code: SyncCode) -> [UInt8]
    /// Whether `deviceKey` was bound by a holder of one of `keys` (the account's, by version).
    func isBound(_ deviceKey: [UInt8], account: UUID, keys: [Int: SyncKey]) -> Bool
    /// `key` (of `version`) wrapped to `deviceKey` for `device`, bound to `previous`.
    func wrap(_ key: SyncKey, version: Int, for deviceKey: [UInt8], device: UUID, account: UUID, previous: SyncKey) throws -> [UInt8]
    /// The key in `wrapped`, if this device's `secret` opens it and a key of `previous` bound it.
    func unwrap(_ wrapped: [UInt8], version: Int, device: UUID, account: UUID, secret: SyncKey, previous: [Int: SyncKey]) -> SyncKey?
    /// `keys` sealed under `key` (of `version`).
    func sealRing(_ keys: [Int: SyncKey], under key: SyncKey, version: Int, account: UUID) throws -> [UInt8]
    /// The keys in `ring`, if `key` (of `version`) opens it.
    func openRing(_ ring: [UInt8], under key: SyncKey, version: Int, account: UUID) -> [Int: SyncKey]?
}
