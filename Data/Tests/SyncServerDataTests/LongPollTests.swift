import Foundation
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

/// A pull that waits for a change (long-poll), over the in-memory store with a stepping
/// notifier (no real waiting), and the instance's real notifier on its own.
@Suite("Long-poll")
struct LongPollTests {
    let store = InMemorySyncServerStore()
    let clock = SettableServerClock(unix: 1_800_000_000)
    let limits = SyncLimits()
    let account = SyncAccountID(ServerSamples.uuid(1, high: 0xA0))
    var caller: AuthenticatedDevice { AuthenticatedDevice(account: account, device: DeviceID(ServerSamples.uuid(1, high: 0xD0))) }

    func setUp() async throws {
        try await store.createAccount(SyncAccountRecord(id: account, authKeyDigest: SecretDigest(bytes: [1]), createdAt: clock.now()))
    }

    func push(_ entry: UInt8, notifier: any ChangeNotifier) async throws {
        _ = try await DefaultPushChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits
        )
        .execute([ServerSamples.change(entry, "e\(entry)")], for: caller)
    }

    @Test("changes after the cursor are answered at once, without waiting")
    func answersAtOnce() async throws {
        try await setUp()
        let notifier = SteppingChangeNotifier(clock: clock)
        try await push(1, notifier: notifier)
        #expect(notifier.changed == [account])
        let page = try await DefaultPullChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits
        )
        .execute(after: 0, limit: nil, waiting: 30, for: caller)
        #expect(page.entries.map(\.sequence) == [1] && notifier.waits.isEmpty)
    }

    @Test("a change that arrives while waiting is answered, with the head checked every interval")
    func wakesOnChange() async throws {
        try await setUp()
        let store = self.store
        let pusher = DefaultPushChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: SteppingChangeNotifier(clock: clock), limits: limits)
        let caller = self.caller
        let notifier = SteppingChangeNotifier(clock: clock) { count in
            if count == 3 { _ = try? await pusher.execute([ServerSamples.change(9, "late")], for: caller) }
        }
        let started = clock.now()
        let page = try await DefaultPullChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits
        )
        .execute(after: 0, limit: nil, waiting: 30, for: caller)
        #expect(page.entries.map(\.sequence) == [1] && page.head == 1)
        #expect(notifier.waits == [1, 1, 1])
        #expect(page.serverTime == started.addingTimeInterval(3))
    }

    @Test(
        "nothing within the wait: an empty page at the deadline (the asked wait, or the server's shorter limit), the last wait cut to what was left",
        arguments: [
            (interval: 2.0, serverLimit: 30, asked: 5, waits: [2.0, 2, 1]), (interval: 1, serverLimit: 2, asked: 30, waits: [1, 1]),
        ])
    func timesOut(_ setting: (interval: Double, serverLimit: Int, asked: Int, waits: [Double])) async throws {
        try await setUp()
        var limits = self.limits
        limits.headCheckInterval = setting.interval
        limits.longPollSeconds = setting.serverLimit
        let notifier = SteppingChangeNotifier(clock: clock)
        let page = try await DefaultPullChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits
        )
        .execute(after: 0, limit: nil, waiting: setting.asked, for: caller)
        #expect(page.entries.isEmpty && page.head == 0)
        #expect(notifier.waits == setting.waits)
    }

    @Test("a wait beyond the limit is refused; 0 never waits")
    func bounds() async throws {
        try await setUp()
        let notifier = SteppingChangeNotifier(clock: clock)
        let pull = DefaultPullChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits)
        await #expect(throws: SyncServerError.invalid("a pull waits 0 to 30 seconds")) {
            try await pull.execute(after: 0, limit: nil, waiting: 31, for: caller)
        }
        #expect(try await pull.execute(after: 0, limit: nil, waiting: 0, for: caller).entries.isEmpty)
        #expect(notifier.waits.isEmpty)
    }

    @Test("the instance's notifier: a change wakes that account's waiters only")
    func localNotifier() async throws {
        let notifier = LocalChangeNotifier()
        let other = SyncAccountID(ServerSamples.uuid(2, high: 0xA0))
        let woken = Task { await notifier.wait(for: account, atMost: 60) }
        let untouched = Task { await notifier.wait(for: other, atMost: 60) }
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while await notifier.waiting < 2, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(await notifier.waiting == 2)
        await notifier.changed(account)
        await woken.value
        #expect(await notifier.waiting == 1)
        untouched.cancel()
        await untouched.value
        #expect(await notifier.waiting == 0)
    }

    @Test("the instance's notifier: a wait ends by itself after its time")
    func localNotifierTimeout() async {
        let notifier = LocalChangeNotifier()
        await notifier.wait(for: account, atMost: 0.01)
        #expect(await notifier.waiting == 0)
    }
}
