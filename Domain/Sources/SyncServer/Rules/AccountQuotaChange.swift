/// A change an operator asks of an account's quota (`tokens-server admin quota ACCOUNT --entries
/// N|default --mib N|default`): each part kept, given back to the server's, or set.
public struct AccountQuotaChange: Equatable, Sendable {
    /// What becomes of one part of the quota.
    public enum Part: Equatable, Sendable {
        /// As it is now.
        case keep
        /// The server's (`server.quota.…`), as if never set.
        case serverDefault
        /// This many entries, or bytes.
        case set(Int)

        func applied(to current: Int?) -> Int? {
            switch self {
            case .keep: current
            case .serverDefault: nil
            case .set(let value): value
            }
        }
    }

    public let entries: Part
    public let bytes: Part

    public init(entries: Part = .keep, bytes: Part = .keep) {
        self.entries = entries
        self.bytes = bytes
    }

    /// True when it changes nothing, whatever the quota is.
    public var keepsAll: Bool { entries == .keep && bytes == .keep }

    /// The quota `current` becomes.
    public func applied(to current: AccountQuota) -> AccountQuota {
        AccountQuota(entries: entries.applied(to: current.entries), bytes: bytes.applied(to: current.bytes))
    }
}
