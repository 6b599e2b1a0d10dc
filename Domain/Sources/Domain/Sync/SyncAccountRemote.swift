import Foundation

/// What enrolling gives a machine: its id on the server and the bearer token it signs every
/// later call with. The token is a secret (the vault keeps it); its description never shows it.
public struct SyncEnrolment: Equatable, Sendable, CustomStringConvertible {
    public let deviceID: UUID
    public let token: [UInt8]

    public init(deviceID: UUID, token: [UInt8]) {
        self.deviceID = deviceID
        self.token = token
    }

    public var description: String { "SyncEnrolment(device: \(deviceID), token: redacted)" }
}

/// A machine enrolled in the sync account, as the server lists it.
public struct EnrolledDevice: Hashable, Sendable {
    public let id: UUID
    public let name: String
    public let enrolledAt: Date
    /// When it was revoked; nil while it may sync.
    public let revokedAt: Date?
    /// The machine asking.
    public let isThisDevice: Bool
    /// The last time the server saw it sync; nil when it never did (or the server does not say).
    public let lastSeenAt: Date?

    public init(id: UUID, name: String, enrolledAt: Date, revokedAt: Date?, isThisDevice: Bool, lastSeenAt: Date? = nil) {
        self.id = id
        self.name = name
        self.enrolledAt = enrolledAt
        self.revokedAt = revokedAt
        self.isThisDevice = isThisDevice
        self.lastSeenAt = lastSeenAt
    }
}

/// The sync account on the server, before a machine has a token: the first machine opens it,
/// each machine (the first too) enrols with the auth key derived from the sync code. Data knows
/// the account id and auth key; the rules here know neither. Throws SyncError only.
public protocol SyncAccountRemote: Sendable {
    /// Opens the account, presenting `invitation` if given; `.accountExists` when it is already
    /// open, `.invitationRequired`, `.invitationRefused` or `.signupClosed` when the server opens
    /// none for this request.
    func createAccount(invitation: SyncInvitation?) async throws(SyncError)
    /// Enrols this machine under `deviceName` (1 to 64 characters) with its device key (see
    /// `SyncKeySealing`); `.unauthorized` when the auth key is not the account's.
    func enrol(deviceName: String, deviceKey: [UInt8]) async throws(SyncError) -> SyncEnrolment
}

/// The enrolled machines of the account, as one of them sees them. Throws SyncError only.
public protocol SyncDevicesRemote: Sendable {
    /// Every device of the account, oldest first, revoked ones included.
    func devices() async throws(SyncError) -> [EnrolledDevice]
    /// Revokes a device (this one too); `.unknownDevice` when the account has no such device.
    func revoke(_ device: UUID) async throws(SyncError)
}
