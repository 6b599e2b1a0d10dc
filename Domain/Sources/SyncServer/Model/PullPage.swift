import Foundation

/// A page of changes after a cursor, in sequence order.
public struct PullPage: Equatable, Sendable {
    public let entries: [SyncEntry]
    /// The account's latest sequence when the page was read.
    public let head: Int64
    /// The server's time, so clients can estimate their clock's offset.
    public let serverTime: Date
    /// More changes follow: pull again after the last entry's sequence.
    public let hasMore: Bool
    /// The store's generation (see `SyncServerStore.generation()`); nil when not read.
    public let generation: String?
    /// The version of the account's sync key (a client behind it fetches the new key before it
    /// sends anything); nil when not read.
    public let keyVersion: Int32?

    public init(
        entries: [SyncEntry], head: Int64, serverTime: Date, hasMore: Bool, generation: String? = nil, keyVersion: Int32? = nil
    ) {
        self.entries = entries
        self.head = head
        self.serverTime = serverTime
        self.hasMore = hasMore
        self.generation = generation
        self.keyVersion = keyVersion
    }

    /// The cursor for the next pull.
    public var nextCursor: Int64? { entries.last?.sequence }
}
