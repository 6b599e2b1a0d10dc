import Foundation

/// Which screen shows.
public enum Route: Hashable, Sendable {
    case unlock
    case list
    case add
    case detail(UUID)
}
