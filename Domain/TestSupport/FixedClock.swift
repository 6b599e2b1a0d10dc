import Domain
import Foundation
import Synchronization

/// A Clock that tells the time a test sets, and moves only when the test moves it.
public final class FixedClock: WallClock {
    private let current: Mutex<Date>

    public init(_ date: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.current = Mutex(date)
    }

    public convenience init(unix seconds: TimeInterval) {
        self.init(Date(timeIntervalSince1970: seconds))
    }

    public func now() -> Date { current.withLock { $0 } }

    public func set(_ date: Date) { current.withLock { $0 = date } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
