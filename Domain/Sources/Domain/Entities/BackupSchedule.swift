import Foundation

/// When a change calls for an automatic backup: when no copy was written in the last
/// `interval` seconds (0: never). A burst of changes makes one copy, and a read makes none.
public struct BackupSchedule: Hashable, Sendable {
    public let interval: TimeInterval

    public init(interval: TimeInterval) {
        self.interval = interval
    }

    /// Whether a change at `now` calls for a copy, the newest being written at `newest`.
    public func isDue(newest: Date?, now: Date) -> Bool {
        guard interval > 0 else { return false }
        guard let newest else { return true }
        return now.timeIntervalSince(newest) >= interval || newest > now
    }

    /// How old the newest copy may be for a scheduled run to leave an unchanged vault alone.
    static let unchangedFor: TimeInterval = 86_400

    /// Whether a scheduled run (`tokens backup now --if-changed`) at `now` writes no copy: the
    /// newest, written at `newest`, holds the vault as it is (`holdsCurrent`, asked only then)
    /// and is less than a day old. So a burst of changes gets one copy once it settles, and an
    /// unchanged vault one a day (the retention's daily tier, and the staleness warning, count on it).
    public static func isUnchanged(newest: Date?, now: Date, holdsCurrent: () -> Bool) -> Bool {
        guard let newest, newest <= now, now.timeIntervalSince(newest) < unchangedFor else { return false }
        return holdsCurrent()
    }

    /// Whether the newest copy, written at `newest`, is older than `limit` seconds at `now`
    /// (or there is none): what `tokens doctor` and the screen warn of.
    public static func isStale(newest: Date?, now: Date, limit: TimeInterval) -> Bool {
        guard let newest else { return true }
        return now.timeIntervalSince(newest) > limit
    }
}
