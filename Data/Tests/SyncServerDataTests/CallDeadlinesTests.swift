import Synchronization
import Testing

@testable import SyncServerData

/// The store's deadlines: a call past its deadline is cancelled and says so; any other outcome is
/// the call's own.
@Suite("Call deadlines")
struct CallDeadlinesTests {
    struct Refused: Error {}

    /// Deadlines whose loop never runs during a test (expired by hand with `expire(at:)`).
    let deadlines = CallDeadlines(tick: .seconds(3600))

    /// Waits until `count` calls are registered (bounded: 10 s).
    func waitUntilRunning(_ count: Int) async throws {
        for _ in 0..<10_000 where deadlines.running != count { try await Task.sleep(for: .milliseconds(1)) }
        try #require(deadlines.running == count)
    }

    @Test("a call within its deadline: its value, or its own error; nothing left registered")
    func withinDeadline() async throws {
        #expect(try await deadlines.run(within: .seconds(10)) { 42 } == 42)
        await #expect(throws: Refused.self) { try await deadlines.run(within: .seconds(10)) { () throws -> Int in throw Refused() } }
        #expect(deadlines.running == 0)
    }

    @Test("a call past its deadline is cancelled and throws Expired, whatever it threw on being cancelled; one not yet due is left")
    func pastDeadline() async throws {
        let late = Task { try await deadlines.run(within: .seconds(1)) { try await Task.sleep(for: .seconds(600)) } }
        let patient = Task { try await deadlines.run(within: .seconds(300)) { try await Task.sleep(for: .seconds(600)) } }
        try await waitUntilRunning(2)
        #expect(deadlines.expire(at: .now + .seconds(2)) == 1)
        await #expect(throws: CallDeadlines.Expired.self) { try await late.value }
        #expect(deadlines.running == 1)
        patient.cancel()
        await #expect(throws: CancellationError.self) { try await patient.value }
        #expect(deadlines.running == 0)
    }

    /// Holds a deaf call until the test lets it go.
    final class Gate: Sendable {
        private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
        func wait() async { await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } } }
        func open() -> Bool { waiting.withLock { $0.take() }.map { $0.resume() } != nil }
    }

    @Test("a call deaf to its cancellation (a query on a connection a dying database left open) still ends at its deadline")
    func deafCall() async throws {
        let gate = Gate()
        let deaf = Task { try await deadlines.run(within: .seconds(1)) { await gate.wait() } }
        try await waitUntilRunning(1)
        #expect(deadlines.expire(at: .now + .seconds(2)) == 1)
        await #expect(throws: CallDeadlines.Expired.self) { try await deaf.value }
        // The operation is still held, and ends once let go.
        var opened = gate.open()
        for _ in 0..<10_000 where !opened {
            try await Task.sleep(for: .milliseconds(1))
            opened = gate.open()
        }
        #expect(opened)
    }

    @Test("the caller cancelled: the call is cancelled with it, and that is not an expiry")
    func callerCancelled() async throws {
        let sawCancellation = Mutex(false)
        let caller = Task {
            try await deadlines.run(within: .seconds(300)) {
                do { try await Task.sleep(for: .seconds(600)) } catch {
                    sawCancellation.withLock { $0 = true }
                    throw error
                }
            }
        }
        try await waitUntilRunning(1)
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(sawCancellation.withLock { $0 })
    }

    @Test("the loop expires calls on its own, every tick", .timeLimit(.minutes(1)))
    func loop() async throws {
        let ticking = CallDeadlines(tick: .milliseconds(10))
        await #expect(throws: CallDeadlines.Expired.self) {
            try await ticking.run(within: .milliseconds(50)) { try await Task.sleep(for: .seconds(600)) }
        }
        #expect(ticking.running == 0)
    }
}
