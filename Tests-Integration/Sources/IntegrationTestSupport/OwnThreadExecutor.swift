import Foundation

/// A task executor with a thread of its own. Async tests that wait on the network run on one
/// (`onOwnThread`), so an answer that has arrived is read at once even while the synchronous
/// process tests of other suites hold every thread of the cooperative pool (two on a 2-core
/// machine, for minutes): their deadlines then measure the server, not the machine's load.
/// The thread waits for work as long as the process lives (a job may come late: nothing is lost).
public final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []  // guarded by condition

    public init(name: String) {
        let thread = Thread { [unowned self] in self.runJobs() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs `body` (and the default actors and child tasks it uses) on a thread of its own, off the
/// cooperative pool; a test's synchronous steps (a server started) then hold only its own thread.
public func onOwnThread<T: Sendable>(
    _ name: String = #function, _ body: () async throws -> T
) async throws -> T {
    try await withTaskExecutorPreference(OwnThreadExecutor(name: "test \(name)")) { try await body() }
}
