import Domain
import DomainTestSupport
import Foundation
import Presentation
import PresentationTestSupport
import Synchronization
import Testing

/// The sync status on the list screen, over a scripted sync and the in-memory local store.
@MainActor
@Suite("Sync status view model")
struct SyncStatusViewModelTests {
    /// A sync that answers from a script; `hold` keeps it running until released.
    final class ScriptedSync: SyncUseCase {
        let outcome: Result<SyncReport, SyncError>
        let calls = Mutex(0)
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let hold: Bool

        init(_ outcome: Result<SyncReport, SyncError>, hold: Bool = false) {
            self.outcome = outcome
            self.hold = hold
        }

        func execute() async throws -> SyncReport {
            calls.withLock { $0 += 1 }
            if hold { await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } } }
            return try outcome.get()
        }

        func release() {
            gate.withLock {
                $0?.resume()
                $0 = nil
            }
        }
        var isHeld: Bool { gate.withLock { $0 != nil } }
    }

    let clock = FixedClock(Date(timeIntervalSince1970: 1_800_000_000))
    let store = InMemorySyncLocalStore()

    func model(_ sync: ScriptedSync) -> SyncStatusViewModel { SyncStatusViewModel(sync: sync, local: store, clock: clock) }

    @Test("a sync that went through: up to date at the clock's time, and a notice per conflict copy")
    func upToDate() async {
        var report = SyncReport()
        report.conflictCopies = [UUID()]
        let model = model(ScriptedSync(.success(report)))
        #expect(model.line { _ in "" } == "")
        await model.syncNow()
        #expect(model.state.value == .upToDate(at: clock.now()))
        #expect(model.line { _ in "14:02" } == "synced 14:02")
        #expect(model.notices == ["1 account had its key changed on two machines: the other version is kept as a copy"])
        model.dismissNotices()
        #expect(model.notices.isEmpty)
        // DEV's in-process server is named, so that no one takes it for a real sync.
        let dev = SyncStatusViewModel(sync: ScriptedSync(.success(SyncReport())), local: store, clock: clock, server: "DEV: in memory")
        await dev.syncNow()
        #expect(dev.line { _ in "14:02" } == "synced 14:02 (DEV: in memory)")
    }

    @Test("refused replays leave a notice that names the count and says to check the server")
    func replays() async {
        var report = SyncReport()
        report.refusedReplays = [UUID(), UUID()]
        let model = model(ScriptedSync(.success(report)))
        await model.syncNow()
        #expect(
            model.notices == [
                "the server sent an older version of 2 accounts than this machine had seen: refused, and this machine's version sent again (check the server)"
            ])
    }

    @Test(
        "a server that fell behind (restored from a backup), an entry that does not open, accounts sent again after a resync: each leaves a notice"
    )
    func serverBehind() async {
        var restored = SyncReport()
        restored.serverBehind = true
        restored.resent = 3
        #expect(
            SyncStatusText.notices(for: restored) == [
                "the server had lost changes this machine had seen (restored from a backup?): this machine's accounts were merged and sent again"
            ])
        var poisoned = SyncReport()
        poisoned.unreadable = [UUID()]
        #expect(
            SyncStatusText.notices(for: poisoned) == [
                "1 entry on the server could not be opened (another key, damage or tampering): set aside, and where this machine holds it, its version was sent again"
            ])
        var dropped = SyncReport()
        dropped.lostAcknowledged = [UUID()]
        #expect(
            SyncStatusText.notices(for: dropped) == [
                "the server had acknowledged 1 change it no longer holds: sent again (check the server)"
            ])
        var hostile = SyncReport()
        hostile.cleanedText = [UUID(), UUID()]
        #expect(
            SyncStatusText.notices(for: hostile) == [
                "2 accounts from another machine had terminal control or bidi characters in their text: removed here"
            ])
        var resynced = SyncReport()
        resynced.resynced = true
        resynced.resent = 1
        #expect(
            SyncStatusText.notices(for: resynced) == [
                "a full resync ran: this machine had been away longer than the server keeps deletions",
                "1 account the server no longer had (or had in an older version) sent again",
            ])
    }

    @Test("offline: not a failure; the changes that wait are counted")
    func offline() async {
        await store.change(UUID()) { _ in }
        await store.change(UUID()) { _ in }
        let model = model(ScriptedSync(.failure(.offline)))
        await model.syncNow()
        #expect(model.state.value == .offline(pending: 2))
        #expect(model.line { _ in "" } == "offline: 2 changes wait")
    }

    @Test("a refusal is a failure with the reason and what to do")
    func revoked() async {
        let model = model(ScriptedSync(.failure(.revoked)))
        await model.syncNow()
        #expect(
            model.line { _ in "" }
                == "this machine was revoked from sync: tokens sync leave, then tokens sync join with the code another machine shows")
    }

    @Test("a vault that syncs with nothing shows nothing (the schedule stops); `s` then says how to start")
    func notSyncing() async {
        let model = model(ScriptedSync(.failure(.notSetUp)))
        await model.syncNow()
        #expect(!model.isSyncing && model.line { _ in "" } == "" && model.notices.isEmpty)
        await model.syncNow()
        #expect(model.notices == [SyncStatusText.reason(.notSetUp)])
    }

    @Test("one sync at a time: asking again while one runs does nothing; it shows as syncing")
    func oneAtATime() async {
        let sync = ScriptedSync(.success(SyncReport()), hold: true)
        let model = model(sync)
        let first = Task { await model.syncNow() }
        #expect(await eventually { sync.isHeld })
        #expect(model.line { _ in "" } == "syncing…")
        await model.syncNow()
        sync.release()
        await first.value
        #expect(sync.calls.withLock { $0 } == 1)
        #expect(model.state.value == .upToDate(at: clock.now()))
    }
}
