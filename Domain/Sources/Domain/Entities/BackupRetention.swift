import Foundation

/// Which backups to keep, in tiers: the newest `last` copies, the newest copy of each of the
/// last `days` days, and the newest copy of each of the last `months` months (UTC). A copy no
/// tier keeps is removed; the newest copy is always kept.
public struct BackupRetention: Hashable, Sendable {
    public let last: Int
    public let days: Int
    public let months: Int

    public init(last: Int, days: Int, months: Int) {
        self.last = max(1, last)
        self.days = max(0, days)
        self.months = max(0, months)
    }

    /// The copies, by the time each was written, that the tiers keep at `now`.
    public func kept(_ times: [Date], now: Date) -> Set<Date> {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let newestFirst = times.sorted(by: >)
        var kept = Set(newestFirst.prefix(last))
        func keepNewest(per component: Calendar.Component, count: Int) {
            guard count > 0, let start = calendar.date(byAdding: component, value: -(count - 1), to: now) else { return }
            let first = calendar.dateInterval(of: component, for: start)?.start ?? start
            var periods = Set<Date>()
            for time in newestFirst where time >= first {
                guard let period = calendar.dateInterval(of: component, for: time)?.start else { continue }
                if periods.insert(period).inserted { kept.insert(time) }
            }
        }
        keepNewest(per: .day, count: days)
        keepNewest(per: .month, count: months)
        return kept
    }
}
