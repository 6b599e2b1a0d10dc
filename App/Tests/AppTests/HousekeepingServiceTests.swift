import Logging
import SyncServer
import Synchronization
import Testing

@testable import ServerComposition

/// The server's housekeeping: tombstones expired and history purged every interval until the
/// server stops.
@Suite("Housekeeping service")
struct HousekeepingServiceTests {
    /// Counts its runs; the first one fails.
    final class CountingJob: ExpireTombstonesUseCase, PurgeHistoryUseCase {
        let runs = Mutex(0)
        struct Unavailable: Error {}

        func execute() async throws -> Int {
            let run = runs.withLock {
                $0 += 1
                return $0
            }
            if run == 1 { throw Unavailable() }
            return 2
        }
    }

    @Test("both jobs run every interval, go on after a failed run, and end when the task is cancelled")
    func runsUntilCancelled() async {
        let expiry = CountingJob()
        let purge = CountingJob()
        let service = HousekeepingService(expire: expiry, purgeHistory: purge, interval: .milliseconds(1), logger: Logger(label: "test"))
        let running = Task { await service.run() }
        // Bounded in real time, not in speed: a loaded machine only makes this take longer.
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while purge.runs.withLock({ $0 }) < 3, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
        running.cancel()
        await running.value
        let runs = purge.runs.withLock { $0 }
        #expect(runs >= 3)
        // The history job runs after the expiry that failed first, every time.
        #expect(expiry.runs.withLock { $0 } >= runs)
        try? await Task.sleep(for: .milliseconds(20))
        #expect(purge.runs.withLock { $0 } == runs)
    }
}
