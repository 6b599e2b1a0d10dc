import Domain
import Foundation
import Testing

@Suite("Backup retention and schedule")
struct BackupRetentionTests {
    /// 2026-11-29 12:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_953_600)
    static let hour: TimeInterval = 3600
    static let day: TimeInterval = 86_400

    @Test("the newest copies are kept, then the newest of each day, then the newest of each month; the rest goes")
    func tiers() {
        let retention = BackupRetention(last: 2, days: 3, months: 2)
        let today = [Self.now - 1 * Self.hour, Self.now - 2 * Self.hour, Self.now - 3 * Self.hour]
        let yesterday = [Self.now - Self.day, Self.now - Self.day - Self.hour]
        let twoDaysAgo = [Self.now - 2 * Self.day]
        let lastMonth = [Self.now - 40 * Self.day, Self.now - 41 * Self.day]
        let longAgo = [Self.now - 100 * Self.day]
        let kept = retention.kept(today + yesterday + twoDaysAgo + lastMonth + longAgo, now: Self.now)
        #expect(kept == [today[0], today[1], yesterday[0], twoDaysAgo[0], lastMonth[0]])
    }

    @Test("the newest copy is kept however small the tiers, and nothing is kept that was not given")
    func newestAlwaysKept() {
        let retention = BackupRetention(last: 0, days: 0, months: 0)
        let times = [Self.now - 500 * Self.day, Self.now - 600 * Self.day]
        #expect(retention.kept(times, now: Self.now) == [times[0]])
        #expect(BackupRetention(last: 10, days: 30, months: 12).kept([], now: Self.now).isEmpty)
    }

    @Test("a change calls for a copy when none is recent; 0 turns automatic copies off; a copy from the future is not trusted")
    func schedule() {
        let hourly = BackupSchedule(interval: Self.hour)
        #expect(hourly.isDue(newest: nil, now: Self.now))
        #expect(!hourly.isDue(newest: Self.now - 59 * 60, now: Self.now))
        #expect(hourly.isDue(newest: Self.now - Self.hour, now: Self.now))
        #expect(hourly.isDue(newest: Self.now + Self.day, now: Self.now))
        #expect(!BackupSchedule(interval: 0).isDue(newest: nil, now: Self.now))
    }

    @Test("a scheduled run writes nothing only when the newest copy holds the vault and is under a day old; it asks only then")
    func unchanged() {
        var asked = 0
        func holds(_ answer: Bool) -> () -> Bool {
            {
                asked += 1
                return answer
            }
        }
        #expect(BackupSchedule.isUnchanged(newest: Self.now - 23 * Self.hour, now: Self.now, holdsCurrent: holds(true)))
        #expect(!BackupSchedule.isUnchanged(newest: Self.now - Self.hour, now: Self.now, holdsCurrent: holds(false)))
        #expect(asked == 2)
        #expect(!BackupSchedule.isUnchanged(newest: Self.now - Self.day, now: Self.now, holdsCurrent: holds(true)))
        #expect(!BackupSchedule.isUnchanged(newest: nil, now: Self.now, holdsCurrent: holds(true)))
        #expect(!BackupSchedule.isUnchanged(newest: Self.now + 60, now: Self.now, holdsCurrent: holds(true)))
        #expect(asked == 2, "a copy a day old, none, or one from the future is written without reading the newest")
    }
}
