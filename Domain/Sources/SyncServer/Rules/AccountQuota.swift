/// An operator's quota for one sync account (`tokens-server admin quota`): each part set replaces
/// the server's (`server.quota.entries`, `server.quota.bytes`) for that account; nil keeps it.
public struct AccountQuota: Equatable, Sendable {
    public let entries: Int?
    public let bytes: Int?

    public init(entries: Int? = nil, bytes: Int? = nil) {
        self.entries = entries
        self.bytes = bytes
    }

    /// The server's quota, unchanged.
    public static let serverDefault = AccountQuota()

    public var isServerDefault: Bool { entries == nil && bytes == nil }

    /// The quota a push to this account is held to, where the server's is `quota`.
    public func applied(to quota: StorageQuota) -> StorageQuota {
        StorageQuota(entries: entries ?? quota.entries, bytes: bytes ?? quota.bytes)
    }
}
