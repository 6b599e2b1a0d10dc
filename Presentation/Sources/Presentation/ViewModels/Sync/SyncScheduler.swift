import Domain

/// When the screen syncs: once when the list opens (the vault is unlocked) and every `interval`
/// while it stays open; never while locked. `s` syncs at once through `status`.
@MainActor
public final class SyncScheduler {
    public let status: SyncStatusViewModel
    private let interval: Duration
    private let clock: any Clock<Duration>
    private var task: Task<Void, Never>?

    public init(status: SyncStatusViewModel, interval: Duration, clock: any Clock<Duration>) {
        self.status = status
        self.interval = interval
        self.clock = clock
    }

    /// Syncs now, then every interval until `stop` (a second start restarts the rhythm);
    /// `afterEach` runs after every sync (the list reloads what it brought).
    public func start(afterEach: @escaping @MainActor () async -> Void) {
        task?.cancel()
        let (status, interval, clock) = (status, interval, clock)
        task = Task {
            while !Task.isCancelled {
                await status.syncNow()
                await afterEach()
                // A vault that syncs with nothing is not asked again until the list reopens.
                if !status.isSyncing { return }
                do { try await clock.sleep(for: interval) } catch { return }
            }
        }
    }

    /// Output: whether syncs are scheduled (the list is open).
    public var isScheduled: Bool { task != nil }

    public func stop() {
        task?.cancel()
        task = nil
    }
}
