/// What one sync account may hold on the server: live entries, and bytes of ciphertext (its
/// tombstones' too). A push past either is refused whole, nothing stored; one that frees space
/// (or keeps what it takes) is never refused, even over a quota lowered since.
public struct StorageQuota: Equatable, Sendable {
    public let entries: Int
    public let bytes: Int

    public init(entries: Int, bytes: Int) {
        self.entries = entries
        self.bytes = bytes
    }

    /// No quota (tests of other rules, and tools).
    public static let unlimited = StorageQuota(entries: .max, bytes: .max)
}

/// An account's use of its quota, as a push changes it entry by entry.
public struct StorageUsage: Equatable, Sendable {
    public var entries: Int
    public var bytes: Int

    public init(entries: Int, bytes: Int) {
        self.entries = entries
        self.bytes = bytes
    }

    /// The use once `payload` replaces `stored` (nil: a new entry).
    public mutating func write(_ payload: EntryPayload, replacing stored: EntryPayload?) {
        entries += (payload.isDeleted ? 0 : 1) - (stored.map { $0.isDeleted ? 0 : 1 } ?? 0)
        bytes += payload.ciphertext.count - (stored?.ciphertext.count ?? 0)
    }

    /// Refuses this use, reached from `before`, when it is past `quota` on a count that grew.
    public func check(_ quota: StorageQuota, from before: StorageUsage) throws(SyncServerError) {
        if entries > quota.entries && entries > before.entries || bytes > quota.bytes && bytes > before.bytes {
            throw .quotaExceeded(quota)
        }
    }
}
