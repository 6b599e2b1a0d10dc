import Domain
import Foundation
import Observation
import Synchronization

/// What the screen computes codes at (`codes.offset`) and what its header says of this
/// machine's clock: each sync's measurement against the server comes in (`measured(_:)`), the
/// codes' clock follows it when the setting is `measured` (auto), and the header says the
/// correction, or that the clock is off beyond `limit` seconds.
@MainActor
@Observable
public final class ClockCheckViewModel {
    /// Output: the last measurement (nil: none yet this session).
    public private(set) var measured: ClockOffset?
    /// The clock codes are computed at (give it to the list); it moves with each measurement.
    @ObservationIgnored public let codeClock: AdjustableClock
    @ObservationIgnored private let setting: CodesOffset
    @ObservationIgnored private let limit: Int
    /// The measurement the vault kept from an earlier sync (read once the vault is unlocked).
    @ObservationIgnored private let stored: (@Sendable () async -> ClockOffset?)?
    @ObservationIgnored private var readStored = false

    /// `stored`: reads the last measurement an earlier sync kept, for the time before this
    /// session's first sync answers (or all of it, offline).
    public init(
        base: any WallClock, setting: CodesOffset, limit: Int, measured: ClockOffset? = nil,
        stored: (@Sendable () async -> ClockOffset?)? = nil
    ) {
        self.setting = setting
        self.limit = limit
        self.measured = measured
        self.stored = stored
        codeClock = AdjustableClock(base: base, seconds: setting.seconds(measured: measured))
    }

    /// Input: the vault is open (a sync is about to start): take the kept measurement, once,
    /// unless one came in already.
    public func loadStored() async {
        guard !readStored, let stored else { return }
        readStored = true
        let offset = await stored()
        if measured == nil { measured(offset) }
    }

    /// Input: a sync measured the server's clock (nil: it could not; the last one stays).
    public func measured(_ offset: ClockOffset?) {
        guard let offset else { return }
        measured = offset
        codeClock.set(seconds: setting.seconds(measured: offset))
    }

    /// Output: the header's words ("codes at -5 min", "clock 63 s slow"); nil when all is well.
    public var header: String? {
        ClockOffsetText.header(measured: measured, applied: codeClock.seconds, limit: limit)
    }
}

/// A WallClock some seconds off another, which can be moved while codes are read from it on
/// other threads.
public final class AdjustableClock: WallClock {
    private let base: any WallClock
    private let offset: Mutex<Int>

    public init(base: any WallClock, seconds: Int) {
        self.base = base
        offset = Mutex(seconds)
    }

    public var seconds: Int { offset.withLock { $0 } }

    public func set(seconds: Int) { offset.withLock { $0 = seconds } }

    public func now() -> Date { base.now().addingTimeInterval(TimeInterval(seconds)) }
}
