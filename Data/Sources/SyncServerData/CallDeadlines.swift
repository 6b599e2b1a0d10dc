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
    /// the caller is cancelled). Past its deadline the call ends at once with `Expired`, even if
    /// the operation does not heed its cancellation (a query on a connection that a dying
    /// database left open): the operation's task ends on its own later, and its result is dropped.
    func run<T: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let pending = Pending<T>()
        let id = state.withLock { state in
            state.next += 1
            return state.next
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.answer = continuation
                state.withLock { state in
                    state.running[id] = Call(
                        deadline: .now + limit,
                        cancel: {
                            pending.task?.cancel()
                            pending.take()?.resume(throwing: Expired())
                        })
                }
                let call = Task { [self] in
                    let result: Result<T, any Error>
                    do { result = .success(try await operation()) } catch { result = .failure(error) }
                    _ = state.withLock { $0.running.removeValue(forKey: id) }
                    // Nil when `expire` took it first: it has answered already.
                    pending.take()?.resume(with: result)
                }
                pending.task = call
                // Expired or cancelled before the task was there to cancel.
                if Task.isCancelled || state.withLock({ $0.running[id] == nil }) { call.cancel() }
            }
        } onCancel: {
            pending.task?.cancel()
        }
    }

    /// One call's answer, given once (by the call or by its expiry), and its task.
    private final class Pending<T: Sendable>: Sendable {
        private let slots = Mutex<(answer: CheckedContinuation<T, any Error>?, task: Task<Void, Never>?)>((nil, nil))

        var answer: CheckedContinuation<T, any Error>? {
            get { slots.withLock { $0.answer } }
            set { slots.withLock { $0.answer = newValue } }
        }

        var task: Task<Void, Never>? {
            get { slots.withLock { $0.task } }
            set { slots.withLock { $0.task = newValue } }
        }

        /// The answer, if nobody gave it yet.
        func take() -> CheckedContinuation<T, any Error>? { slots.withLock { $0.answer.take() } }
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
