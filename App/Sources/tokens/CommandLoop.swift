import Foundation
import Synchronization

/// Runs a command's async work from the synchronous `main`.
enum CommandLoop {
    /// Runs `work` on the calling (main) thread and returns its status, starting no worker
    /// thread. Only for work that never needs the main actor, which this thread then cannot
    /// serve: every command but the screen. Default actors run on the same thread (the task's
    /// executor preference).
    static func wait(_ work: sending @escaping () async -> Int32) -> Int32 {
        let executor = CurrentThreadExecutor()
        let status = StatusCell()
        Task(executorPreference: executor) {
            status.set(await work())
            executor.stop()
        }
        executor.run()
        return status.value
    }

    /// The status a task hands back to the waiting main thread.
    private final class StatusCell: Sendable {
        private let status = Mutex<Int32>(0)
        var value: Int32 { status.withLock { $0 } }
        func set(_ value: Int32) { status.withLock { $0 = value } }
    }

    /// Runs `work` while the main thread runs the main run loop, which serves the main actor
    /// (the interactive screen), and exits with the status `work` returns.
    static func serveMainActor(_ work: sending @escaping () async -> Int32) -> Never {
        Task { exit(await work()) }
        RunLoop.main.run()
        // The main run loop returns only if it has nothing to serve; the task still ends the process.
        while true { sleep(60) }
    }
}
