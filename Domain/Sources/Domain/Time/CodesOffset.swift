import Foundation

/// The `codes.offset` setting: what codes are computed at, against this machine's clock. `none`
/// (the default) uses the clock as it is; `fixed` adds a number of seconds; `measured` adds the
/// offset last measured against the sync server (nothing while none was measured).
public enum CodesOffset: Equatable, Sendable {
    case none
    case fixed(seconds: Int)
    case measured

    /// The seconds added to the clock for codes, given the last measurement.
    public func seconds(measured offset: ClockOffset?) -> Int {
        switch self {
        case .none: 0
        case .fixed(let seconds): seconds
        case .measured: offset?.wholeSeconds ?? 0
        }
    }
}

/// A WallClock `seconds` ahead of another (behind when negative): the clock codes are made at
/// when `codes.offset` corrects this machine's.
public struct OffsetClock: WallClock {
    public let base: any WallClock
    public let seconds: Int

    public init(base: any WallClock, seconds: Int) {
        self.base = base
        self.seconds = seconds
    }

    public func now() -> Date { base.now().addingTimeInterval(TimeInterval(seconds)) }
}
