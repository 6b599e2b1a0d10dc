import Foundation

/// How much of each account's history the server keeps: every live version a push replaces is
/// kept (a deletion's too, so a deleted account can be brought back), then the housekeeping
/// service forgets a version once it was replaced more than `days` ago, once its entry has
/// `versionsPerEntry` newer ones kept, or once the newer ones kept for its account hold `bytes`.
public struct HistoryRetention: Equatable, Sendable {
    public let days: Int
    public let versionsPerEntry: Int
    public let bytes: Int

    public init(days: Int, versionsPerEntry: Int, bytes: Int) {
        self.days = days
        self.versionsPerEntry = versionsPerEntry
        self.bytes = bytes
    }

    /// 90 days, 20 versions of an entry, 16 MiB of ciphertext per account.
    public static let standard = HistoryRetention(days: 90, versionsPerEntry: 20, bytes: 16 * 1024 * 1024)

    /// Versions replaced before this time are forgotten.
    public func cutoff(now: Date) -> Date { now.addingTimeInterval(-Double(days) * 86_400) }

    /// The versions `retention` keeps of `history` (one account's, any order): the newest
    /// `versionsPerEntry` of each entry, the newest within `bytes` in all, none replaced before
    /// `cutoff`. The in-memory store applies it as it is; the PostgreSQL store in one statement.
    public func kept(_ history: [EarlierEntry], cutoff: Date) -> [EarlierEntry] {
        var perEntry: [EntryID: Int] = [:]
        var total = 0
        var kept: [EarlierEntry] = []
        for earlier in history.sorted(by: { $0.entry.sequence > $1.entry.sequence }) {
            perEntry[earlier.entry.id, default: 0] += 1
            total += earlier.entry.payload.ciphertext.count
            guard earlier.replacedAt >= cutoff, perEntry[earlier.entry.id, default: 0] <= versionsPerEntry, total <= bytes else { continue }
            kept.append(earlier)
        }
        return kept.reversed()
    }
}
