import Logging
import SyncServer
import Synchronization
import Testing

@testable import ServerComposition

/// The server's housekeeping: tombstones expired every interval until the server stops.
@Suite("Tombstone expiry service")
struct TombstoneExpiryServiceTests {
    /// Counts its runs; the first one fails.
    final class CountingExpiry: ExpireTombstonesUseCase {
        let runs = Mutex(0)
        struct Unavailable: Error {}

        func execute() async throws -> Int {
            let run = runs.withLock { $0 += 1; return $0 }
            if run == 1 { throw Unavailable() }
            return 2
        }
    }

    @Test("it runs every interval, goes on after a failed run, and ends when its task is cancelled")
    func runsUntilCancelled() async {
        let expiry = CountingExpiry()
        let service = TombstoneExpiryService(expire: expiry, interval: .milliseconds(1), logger: Logger(label: "test"))
        let running = Task { await service.run() }
        // Bounded in real time, not in speed: a loaded machine only makes this take longer.
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while expiry.runs.withLock({ $0 }) < 3, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
        running.cancel()
        await running.value
        let runs = expiry.runs.withLock { $0 }
        #expect(runs >= 3)
        try? await Task.sleep(for: .milliseconds(20))
        #expect(expiry.runs.withLock { $0 } == runs)
    }
}
