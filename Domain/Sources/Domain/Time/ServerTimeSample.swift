import Foundation

/// One answer of the sync server read for its time: when the request left and its answer came
/// back (this machine's clock) and the time the server wrote in its `Date` header (whole seconds,
/// as HTTP dates are).
public struct ServerTimeSample: Hashable, Sendable {
    public let sent: Date
    public let received: Date
    public let serverDate: Date

    public init(sent: Date, received: Date, serverDate: Date) {
        self.sent = sent
        self.received = received
        self.serverDate = serverDate
    }

    /// The round trip; never negative, even if this machine's clock stepped back meanwhile.
    public var roundTrip: TimeInterval { max(0, received.timeIntervalSince(sent)) }

    /// How far the server's clock is ahead of this machine's (negative: behind). The server wrote
    /// its date somewhere in the round trip, and somewhere within its whole second: the middle of
    /// each is taken, so the estimate is within `uncertainty` of the truth.
    public var offset: ClockOffset {
        let middle = sent.addingTimeInterval(roundTrip / 2)
        return ClockOffset(
            seconds: serverDate.timeIntervalSince(middle) + 0.5, uncertainty: roundTrip / 2 + 0.5, measuredAt: received)
    }
}
