import Foundation

/// A version of an entry that the server kept when a later push replaced it, decrypted.
public struct EarlierVersion: Hashable, Sendable {
    public let entry: RemoteEntry
    /// When the push that replaced it reached the server.
    public let replacedAt: Date

    public init(entry: RemoteEntry, replacedAt: Date) {
        self.entry = entry
        self.replacedAt = replacedAt
    }
}

/// A page of the sync account's earlier versions.
public struct EarlierPage: Hashable, Sendable {
    public let versions: [EarlierVersion]
    /// Versions of the page this machine cannot open (another key, a damaged ciphertext).
    public let unreadable: Int
    /// The last sequence the page covers, readable or not (nil: an empty page).
    public let last: Int64?
    public let hasMore: Bool

    public init(versions: [EarlierVersion], unreadable: Int = 0, last: Int64?, hasMore: Bool) {
        self.versions = versions
        self.unreadable = unreadable
        self.last = last
        self.hasMore = hasMore
    }
}

/// The server's history of the sync account (Data: the generated HTTP client, each version
/// decrypted with the key it was sealed with). Throws SyncError only.
public protocol SyncHistoryRemote: Sendable {
    /// Earlier versions after `cursor`, in sequence order (a page at most).
    func earlier(after cursor: Int64) async throws(SyncError) -> EarlierPage
}
