import Foundation

/// Port: the Clock. Tells the current wall-clock time; Domain never reads the system clock itself.
public protocol WallClock: Sendable {
    func now() -> Date
}
