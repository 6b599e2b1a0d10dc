import Foundation

/// How far the sync server's clock was from this machine's when last measured: `seconds` ahead
/// (negative: behind), to within `uncertainty` seconds. Codes are wrong when the clock is wrong:
/// this is what tells a user so, and what `codes.offset auto` corrects codes by.
public struct ClockOffset: Equatable, Sendable {
    public let seconds: TimeInterval
    public let uncertainty: TimeInterval
    public let measuredAt: Date

    public init(seconds: TimeInterval, uncertainty: TimeInterval, measuredAt: Date) {
        self.seconds = seconds
        self.uncertainty = uncertainty
        self.measuredAt = measuredAt
    }

    /// The best of several answers' estimates: the one with the shortest round trip, whose window
    /// is the narrowest. nil when there is none.
    public static func best(of samples: [ServerTimeSample]) -> ClockOffset? {
        samples.min { $0.roundTrip < $1.roundTrip }?.offset
    }

    /// The better of two measurements (the narrower; the later when equally narrow).
    public static func better(_ one: ClockOffset?, _ other: ClockOffset?) -> ClockOffset? {
        guard let one else { return other }
        guard let other else { return one }
        return other.uncertainty < one.uncertainty || other.uncertainty == one.uncertainty && other.measuredAt > one.measuredAt
            ? other : one
    }

    /// Whether this machine's clock is surely further than `limit` seconds from the server's: the
    /// whole window of the estimate lies beyond it.
    public func isBeyond(_ limit: TimeInterval) -> Bool {
        abs(seconds) - uncertainty > limit
    }

    /// The correction `codes.offset auto` applies: whole seconds, as codes step in seconds.
    public var wholeSeconds: Int { Int(seconds.rounded()) }
}
