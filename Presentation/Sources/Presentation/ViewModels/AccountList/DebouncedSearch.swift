import Foundation

/// The one search that runs once typing pauses: each keystroke cancels the search still waiting.
@MainActor
final class DebouncedSearch {
    private let scheduler: any Clock<Duration>
    private let debounce: Duration
    private var pending: Task<Void, Never>?

    init(scheduler: any Clock<Duration>, debounce: Duration) {
        self.scheduler = scheduler
        self.debounce = debounce
    }

    /// Schedules `search` after the pause, cancelling the one still waiting.
    func schedule(_ search: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        pending?.cancel()
        let task = Task { [debounce, scheduler] in
            do { try await scheduler.sleep(for: debounce) } catch { return }
            await search()
        }
        pending = task
        return task
    }
}
