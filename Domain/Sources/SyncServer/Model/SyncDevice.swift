import Foundation

/// An enrolled machine, as the server keeps it: its token only as a digest.
public struct SyncDevice: Equatable, Sendable {
    public let id: DeviceID
    public let account: SyncAccountID
    /// A label the client chose (e.g. the host name); shown in `tokens sync devices`.
    public let name: String
    public let tokenDigest: SecretDigest
    public let enrolledAt: Date
    public var revokedAt: Date?
    /// The device's own public key, sealed by the client to the sync key (opaque here): a new
    /// sync key is wrapped to it. Nil until the device registers one.
    public var deviceKey: [UInt8]?
    /// When a server last saw the device make a request (written in batches, so up to a minute
    /// late); nil when none was recorded.
    public var lastSeenAt: Date?

    public init(
        id: DeviceID, account: SyncAccountID, name: String, tokenDigest: SecretDigest, enrolledAt: Date,
        revokedAt: Date? = nil, deviceKey: [UInt8]? = nil, lastSeenAt: Date? = nil
    ) {
        self.id = id
        self.account = account
        self.name = name
        self.tokenDigest = tokenDigest
        self.enrolledAt = enrolledAt
        self.revokedAt = revokedAt
        self.deviceKey = deviceKey
        self.lastSeenAt = lastSeenAt
    }

    public var isRevoked: Bool { revokedAt != nil }
}

/// A sync account as the server keeps it.
public struct SyncAccountRecord: Equatable, Sendable {
    public let id: SyncAccountID
    public let authKeyDigest: SecretDigest
    public let createdAt: Date
    /// The version of the sync key the auth key belongs to: 1 when opened, one more at each
    /// rotation (`SyncKeyRotation`).
    public let keyVersion: Int32
    /// The earlier sync keys, sealed by a client under the current one (opaque here).
    public let keyRing: [UInt8]?

    public init(id: SyncAccountID, authKeyDigest: SecretDigest, createdAt: Date, keyVersion: Int32 = 1, keyRing: [UInt8]? = nil) {
        self.id = id
        self.authKeyDigest = authKeyDigest
        self.createdAt = createdAt
        self.keyVersion = keyVersion
        self.keyRing = keyRing
    }
}

/// A device's bearer token, handed out once at enrolment (the server keeps only its digest).
public struct Enrolment: Equatable, Sendable {
    public let device: DeviceID
    public let token: SyncSecret

    public init(device: DeviceID, token: SyncSecret) {
        self.device = device
        self.token = token
    }
}

/// Who made a request: a device that is enrolled and not revoked.
public struct AuthenticatedDevice: Equatable, Sendable {
    public let account: SyncAccountID
    public let device: DeviceID

    public init(account: SyncAccountID, device: DeviceID) {
        self.account = account
        self.device = device
    }
}
