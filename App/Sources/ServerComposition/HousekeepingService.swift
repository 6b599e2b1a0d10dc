import Logging
import ServiceLifecycle
import SyncServer

/// The server's housekeeping every `interval` (first after one interval, once the database's
/// migrations have run) until the server stops: expired tombstones forgotten, then the history
/// past its retention. A failed job is logged and tried again at the next interval (the other
/// still runs): housekeeping is never a reason to stop serving.
struct HousekeepingService: Service {
    let expire: any ExpireTombstonesUseCase
    let purgeHistory: any PurgeHistoryUseCase
    let interval: Duration
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                await job("tombstones expired", expire.execute)
                await job("earlier versions forgotten", purgeHistory.execute)
            }
        }
    }

    private func job(_ done: String, _ execute: () async throws -> Int) async {
        do {
            let count = try await execute()
            if count > 0 { logger.info("\(done)", metadata: ["count": "\(count)"]) }
        } catch {
            logger.warning("housekeeping failed; trying again later", metadata: ["job": "\(done)", "error": "\(type(of: error))"])
        }
    }
}
