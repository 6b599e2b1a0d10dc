import Domain
import DomainTestSupport
import Foundation
import Presentation
import Synchronization
import Testing

/// The screen's clock check: each sync's measurement comes in through the sync status, codes
/// follow it under `auto` only, and the header and standard error say it in few words.
@MainActor
@Suite("Clock check")
struct ClockCheckViewModelTests {
    let clock = FixedClock(Date(timeIntervalSince1970: 1_800_000_000))

    func offset(_ seconds: TimeInterval) -> ClockOffset { ClockOffset(seconds: seconds, uncertainty: 0.6, measuredAt: clock.now()) }

    @Test("under auto the codes' clock follows each measurement; a sync that measured nothing leaves the last")
    func followsUnderAuto() async {
        let check = ClockCheckViewModel(base: clock, setting: .measured, limit: 10)
        #expect(check.codeClock.now() == clock.now() && check.header == nil)
        var report = SyncReport()
        report.clockOffset = offset(-299.6)
        await SyncStatusViewModel(
            sync: SyncStatusViewModelTests.ScriptedSync(.success(report)), local: InMemorySyncLocalStore(), clock: clock, clockCheck: check
        ).syncNow()
        #expect(check.measured == offset(-299.6))
        #expect(check.codeClock.now() == clock.now().addingTimeInterval(-300))
        #expect(check.header == "codes at -5 min")
        check.measured(nil)
        #expect(check.codeClock.now() == clock.now().addingTimeInterval(-300))
    }

    @Test("without auto the codes keep their setting; the header says a clock off beyond the limit, and nothing within it")
    func warnsOtherwise() {
        let plain = ClockCheckViewModel(base: clock, setting: .none, limit: 10)
        plain.measured(offset(63))
        #expect(plain.codeClock.now() == clock.now())
        #expect(plain.header == "clock 63 s slow")
        plain.measured(offset(-4))
        #expect(plain.header == nil)
        let fixed = ClockCheckViewModel(base: clock, setting: .fixed(seconds: 30), limit: 10)
        fixed.measured(offset(-100))
        #expect(fixed.codeClock.now() == clock.now().addingTimeInterval(30))
        #expect(fixed.header == "codes at +30 s")
    }

    @Test("the warning names the direction, the size and what to do; nothing within the limit")
    func warningText() {
        let behind = ClockOffsetText.warning(offset(63), limit: 10, correcting: false)
        #expect(
            behind
                == "this machine's clock is 63 s behind the sync server's, so its codes may be refused: turn on time sync (chrony, or systemd-timesyncd: timedatectl set-ntp true), or set codes.offset to auto"
        )
        let ahead = ClockOffsetText.warning(offset(-7_300), limit: 10, correcting: true)
        #expect(ahead?.hasPrefix("this machine's clock is 2 h ahead of the sync server's: codes are computed at the server's time") == true)
        #expect(ClockOffsetText.warning(offset(10.5), limit: 10, correcting: false) == nil)
        #expect(ClockOffsetText.correction(seconds: 0) == nil)
    }
}

/// Before this session's first sync answers (or offline), the measurement an earlier sync kept.
@MainActor
@Suite("Clock check: the kept measurement")
struct ClockCheckStoredTests {
    let clock = FixedClock(Date(timeIntervalSince1970: 1_800_000_000))

    @Test("a sync that fails offline still corrects codes by the kept measurement, read once; a fresh one replaces it")
    func keptMeasurement() async {
        let kept = ClockOffset(seconds: 119.7, uncertainty: 0.5, measuredAt: clock.now() - 3_600)
        let reads = Mutex(0)
        let check = ClockCheckViewModel(
            base: clock, setting: .measured, limit: 10,
            stored: {
                reads.withLock { $0 += 1 }
                return kept
            })
        let offline = SyncStatusViewModel(
            sync: SyncStatusViewModelTests.ScriptedSync(.failure(.offline)), local: InMemorySyncLocalStore(), clock: clock,
            clockCheck: check)
        await offline.syncNow()
        #expect(check.measured == kept && check.codeClock.now() == clock.now().addingTimeInterval(120))
        await offline.syncNow()
        #expect(reads.withLock { $0 } == 1)
        var report = SyncReport()
        report.clockOffset = ClockOffset(seconds: 2, uncertainty: 0.5, measuredAt: clock.now())
        await SyncStatusViewModel(
            sync: SyncStatusViewModelTests.ScriptedSync(.success(report)), local: InMemorySyncLocalStore(), clock: clock, clockCheck: check
        ).syncNow()
        #expect(check.codeClock.now() == clock.now().addingTimeInterval(2))
    }
}
