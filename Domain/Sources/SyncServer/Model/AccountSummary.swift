import Foundation

/// One sync account as an operator sees it (`tokens-server admin accounts`): what it holds and
/// when it last changed, never what it stores.
public struct AccountSummary: Equatable, Sendable {
    public let id: SyncAccountID
    public let createdAt: Date
    /// Devices enrolled and not revoked.
    public let activeDevices: Int
    /// Devices revoked (kept, so their tokens are answered "revoked").
    public let revokedDevices: Int
    /// The storage the quota counts: live entries and their ciphertext's bytes (tombstones' too).
    public let usage: StorageUsage
    /// The last time a push wrote to the account; nil when none has.
    public let lastChange: Date?
    /// The last time a server saw one of its devices (`SyncDevice.lastSeenAt`); nil when none was recorded.
    public let lastSeen: Date?
    /// The operator's quota for this account, where it replaces the server's.
    public let quota: AccountQuota

    public init(
        id: SyncAccountID, createdAt: Date, activeDevices: Int, revokedDevices: Int, usage: StorageUsage, lastChange: Date?,
        lastSeen: Date? = nil, quota: AccountQuota = .serverDefault
    ) {
        self.id = id
        self.createdAt = createdAt
        self.activeDevices = activeDevices
        self.revokedDevices = revokedDevices
        self.usage = usage
        self.lastChange = lastChange
        self.lastSeen = lastSeen
        self.quota = quota
    }

    /// The same account with `quota` in place of its own.
    public func with(quota: AccountQuota) -> AccountSummary {
        AccountSummary(
            id: id, createdAt: createdAt, activeDevices: activeDevices, revokedDevices: revokedDevices, usage: usage,
            lastChange: lastChange, lastSeen: lastSeen, quota: quota)
    }

    /// The later of the last change and the last sighting: when the account was last used.
    public var lastActive: Date? { [lastChange, lastSeen].compactMap { $0 }.max() }
}
