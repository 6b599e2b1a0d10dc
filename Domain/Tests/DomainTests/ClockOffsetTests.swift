import Domain
import DomainTestSupport
import Foundation
import Testing

/// The clock check: what one answer's `Date` says of this machine's clock, which answer is
/// trusted, when a warning is due, and what `codes.offset` makes of it.
@Suite("Clock offset")
struct ClockOffsetTests {
    static let base = Date(timeIntervalSince1970: 1_700_000_000)

    static func sample(sent: TimeInterval, trip: TimeInterval, server: TimeInterval) -> ServerTimeSample {
        ServerTimeSample(
            sent: base.addingTimeInterval(sent), received: base.addingTimeInterval(sent + trip),
            serverDate: base.addingTimeInterval(server))
    }

    @Test("an answer's date, whole seconds, gives the offset to within half the round trip and half a second")
    func estimate() {
        // Sent at +0, back at +0.2: the server wrote 42 s (truncated) somewhere in between.
        let offset = Self.sample(sent: 0, trip: 0.2, server: 42).offset
        #expect(abs(offset.seconds - 42.4) < 1e-6)
        #expect(abs(offset.uncertainty - 0.6) < 1e-6)
        #expect(offset.measuredAt == Self.base.addingTimeInterval(0.2))
        // The truth, anywhere in the window (server at 42.0 to 42.999 when this clock read 0 to 0.2), lies within it.
        for truth in [42.0 - 0.2, 42.999] { #expect(abs(truth - offset.seconds) <= offset.uncertainty) }
    }

    @Test("a clock stepped back mid-request counts no negative round trip")
    func negativeTrip() {
        let sample = Self.sample(sent: 5, trip: -3, server: 0)
        #expect(sample.roundTrip == 0)
        #expect(sample.offset.uncertainty == 0.5)
    }

    @Test("the shortest round trip is the one trusted")
    func best() {
        let slow = Self.sample(sent: 0, trip: 4, server: 100)
        let quick = Self.sample(sent: 10, trip: 0.1, server: 12)
        #expect(ClockOffset.best(of: [slow, quick]) == quick.offset)
        #expect(ClockOffset.best(of: []) == nil)
        #expect(ClockOffset.better(slow.offset, quick.offset) == quick.offset)
        #expect(ClockOffset.better(quick.offset, slow.offset) == quick.offset)
        #expect(ClockOffset.better(nil, slow.offset) == slow.offset)
        #expect(ClockOffset.better(slow.offset, nil) == slow.offset)
    }

    @Test("a warning is due only when the whole window lies beyond the limit")
    func beyond() {
        let at = Self.base
        #expect(ClockOffset(seconds: -12, uncertainty: 1, measuredAt: at).isBeyond(10))
        #expect(!ClockOffset(seconds: 10.8, uncertainty: 1, measuredAt: at).isBeyond(10))
        #expect(!ClockOffset(seconds: 0.3, uncertainty: 0.5, measuredAt: at).isBeyond(10))
    }

    @Test("codes.offset: none, a fixed number of seconds, or the measured offset in whole seconds")
    func codesOffset() {
        let measured = ClockOffset(seconds: -41.6, uncertainty: 0.6, measuredAt: Self.base)
        #expect(CodesOffset.none.seconds(measured: measured) == 0)
        #expect(CodesOffset.fixed(seconds: 30).seconds(measured: measured) == 30)
        #expect(CodesOffset.measured.seconds(measured: measured) == -42)
        #expect(CodesOffset.measured.seconds(measured: nil) == 0)
        let clock = OffsetClock(base: FixedClock(Self.base), seconds: -42)
        #expect(clock.now() == Self.base.addingTimeInterval(-42))
    }
}
