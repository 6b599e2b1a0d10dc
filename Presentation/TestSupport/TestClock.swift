import Domain
import Foundation
import Synchronization
import Testing

/// A clock that moves only when a test advances it. It drives both the scheduler (Swift's Clock,
/// for sleeps, debounce and ticks) and, through `wallClock`, Domain's WallClock port, in lockstep.
public final class TestClock: Clock, Sendable {
    /// A moment on the test clock: time since the clock was made.
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let start: Date

    /// A clock whose wall time starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.start = start
    }

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// The WallClock view of this clock: `start` plus how far the test advanced it.
    public var wallClock: some WallClock { TestWallClock(clock: self) }

    var currentDate: Date {
        let offset = now.offset.components
        return start.addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
    }

    /// How many sleeps are waiting.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleep whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Lets other tasks run until `count` sleeps are waiting (for up to 30 s of real time);
    /// records an issue if they never are.
    public func waitForSleepers(
        _ count: Int, isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        if await eventually({ self.sleeperCount >= count }) { return }
        Issue.record("expected \(count) waiting sleeps, found \(sleeperCount)", sourceLocation: sourceLocation)
    }
}

/// Domain's WallClock port read from a TestClock.
public struct TestWallClock: WallClock {
    let clock: TestClock
    public func now() -> Date { clock.currentDate }
}
