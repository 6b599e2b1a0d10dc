import Foundation

/// This machine's place in a sync account: the account and its key (the sync code), the server
/// it syncs through, and its enrolment there. Every part but the server is a secret: the vault
/// keeps it encrypted, and its description shows none of it.
public struct SyncMembership: Equatable, Sendable, CustomStringConvertible {
    public let code: SyncCode
    public let server: URL
    public let enrolment: SyncEnrolment
    /// The CA certificates (a PEM file's absolute path) trusted for the server, as given when this
    /// machine opened or joined the account; nil: the system's. Used unless another is given.
    public let caFile: String?
    /// The version of the code's key, the earlier keys and this device's own secret.
    public let keys: SyncKeyChain

    public init(code: SyncCode, server: URL, enrolment: SyncEnrolment, caFile: String? = nil, keys: SyncKeyChain = SyncKeyChain()) {
        self.code = code
        self.server = server
        self.enrolment = enrolment
        self.caFile = caFile
        self.keys = keys
    }

    public var description: String { "SyncMembership(server: \(server), device: \(enrolment.deviceID))" }
}

/// What this machine knows of its sync without asking the server.
public struct SyncLocalStatus: Equatable, Sendable {
    public let membership: SyncMembership?
    /// Local changes not sent yet.
    public let pending: Int
    /// When the last sync completed.
    public let lastSync: Date?
    /// Accounts whose key the last sync found changed on two machines (each kept as a copy).
    public let conflicts: Int
    /// The server refused this machine as revoked: it must leave and join again.
    public let revoked: Bool
    /// How far the server's clock was from this machine's at the last sync that could tell.
    public let clockOffset: ClockOffset?

    public init(
        membership: SyncMembership?, pending: Int, lastSync: Date?, conflicts: Int = 0, revoked: Bool = false,
        clockOffset: ClockOffset? = nil
    ) {
        self.membership = membership
        self.pending = pending
        self.lastSync = lastSync
        self.conflicts = conflicts
        self.revoked = revoked
        self.clockOffset = clockOffset
    }
}

/// Port: where a machine keeps its membership and the sync state (Data: the vault, in the same
/// transactions as the entries).
public protocol SyncMembershipStore: Sendable {
    func status() async throws -> SyncLocalStatus
    /// The membership alone (`status().membership`), without counting what waits to be sent: a
    /// store whose count reads every entry answers this from its account alone.
    func membership() async throws -> SyncMembership?
    /// The clock offset the last sync measured (`status().clockOffset`), without counting what
    /// waits to be sent: what `codes.offset auto` reads before a code.
    func clockOffset() async throws -> ClockOffset?
    /// Stores the membership and records every entry as a change to send, stamped `now` by this
    /// device, placed by `SyncRecording.initialPositions(count:joining:)`. Throws when the
    /// machine already belongs to a sync account.
    func begin(_ membership: SyncMembership, now: Date, joining: Bool) async throws
    /// Forgets the membership and every sync record; the entries stay as they are.
    func end() async throws
    /// Remembers that the server refused this machine as revoked (`status().revoked`, until it leaves).
    func recordRevoked() async throws
    /// Keeps `membership` (the same account, with another key or device secret) in place of the
    /// current one; `resend` marks every entry to be sent again (sealed under the new key).
    func replace(with membership: SyncMembership, resend: Bool) async throws
}

extension SyncMembershipStore {
    public func membership() async throws -> SyncMembership? {
        try await status().membership
    }

    public func clockOffset() async throws -> ClockOffset? {
        try await status().clockOffset
    }
}
