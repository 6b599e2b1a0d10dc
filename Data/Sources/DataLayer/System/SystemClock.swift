import Domain
import Foundation

/// The Clock port read from the system's wall clock.
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Date { Date() }
}
