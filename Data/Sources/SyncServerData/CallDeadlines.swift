import Synchronization

/// Deadlines for the store's calls without a timer per call: each call runs as a task of its
/// own, registered with its deadline, and one loop cancels every call past its deadline once a
/// `tick`. (A sleeping task per call, raced against the call, cost the server 6 % of its CPU
/// under load: every sleep arms a timer with the dispatch manager, and most are cancelled.)
/// A call cancelled at its deadline throws `CallDeadlines.Expired`, whatever the operation threw
/// on being cancelled.
final class CallDeadlines: Sendable {
    /// The call ran past its deadline and was cancelled.
    struct Expired: Error {}

    private struct Call {
        let deadline: ContinuousClock.Instant
        let cancel: @Sendable () -> Void
    }

    private struct State {
        var next: UInt64 = 0
        var running: [UInt64: Call] = [:]
    }

    private let state = Mutex(State())

    /// Starts the loop that expires calls every `tick`; it ends one tick after this object goes.
    init(tick: Duration) {
        Task { [weak self] in
            while true {
                try? await Task.sleep(for: tick)
                guard let self else { return }
                self.expire(at: .now)
            }
        }
    }

    /// Runs `operation` as a task of its own, cancelled if it runs past `limit` from now (or if
    /// the caller is cancelled).
    func run<T: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await operation() }
        let id = state.withLock { state in
            state.next += 1
            state.running[state.next] = Call(deadline: .now + limit, cancel: { task.cancel() })
            return state.next
        }
        let result: Result<T, any Error>
        do {
            result = .success(
                try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                })
        } catch {
            result = .failure(error)
        }
        // Gone from the registry: `expire` took it, so it was cancelled at its deadline.
        let expired = state.withLock { $0.running.removeValue(forKey: id) == nil }
        if expired, case .failure = result { throw Expired() }
        return try result.get()
    }

    /// Cancels every call whose deadline is at or before `now`; how many.
    @discardableResult
    func expire(at now: ContinuousClock.Instant) -> Int {
        let overdue = state.withLock { state in
            let ids = state.running.filter { $0.value.deadline <= now }.keys
            return ids.compactMap { state.running.removeValue(forKey: $0) }
        }
        for call in overdue { call.cancel() }
        return overdue.count
    }

    /// Calls running now (for tests).
    var running: Int { state.withLock { $0.running.count } }
}
