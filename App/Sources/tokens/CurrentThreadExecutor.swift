import Foundation

/// A task executor that runs its jobs on the thread that calls `run()`, until `stop()`.
/// Jobs may be enqueued from any thread (a continuation resumed elsewhere); they still run here.
final class CurrentThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var stopped = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends `run()` once the jobs already enqueued have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come, until `stop()`.
    func run() {
        while true {
            condition.lock()
            while jobs.isEmpty, !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
