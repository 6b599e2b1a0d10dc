import Domain
import Foundation
import Synchronization

/// A Clock port a test sets by hand.
public final class SettableClock: WallClock {
    private let date: Mutex<Date>

    public init(unix seconds: TimeInterval) {
        self.date = Mutex(Date(timeIntervalSince1970: seconds))
    }

    public func now() -> Date { date.withLock { $0 } }

    public func set(unix seconds: TimeInterval) { date.withLock { $0 = Date(timeIntervalSince1970: seconds) } }
}
