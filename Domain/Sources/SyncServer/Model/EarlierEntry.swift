import Foundation

/// A version of an entry that a later push replaced, kept for the account's history (undo)
/// within `HistoryRetention`: as opaque to the server as the entry itself.
public struct EarlierEntry: Equatable, Sendable {
    /// The version as it was stored (its sequence, payload and time).
    public let entry: SyncEntry
    /// The server's time of the push that replaced it (retention counts from here).
    public let replacedAt: Date

    public init(entry: SyncEntry, replacedAt: Date) {
        self.entry = entry
        self.replacedAt = replacedAt
    }
}

/// A page of an account's earlier versions (`SyncServerStore.earlierEntries`).
public struct HistoryPage: Equatable, Sendable {
    public let entries: [EarlierEntry]
    public let hasMore: Bool

    public init(entries: [EarlierEntry], hasMore: Bool) {
        self.entries = entries
        self.hasMore = hasMore
    }
}
