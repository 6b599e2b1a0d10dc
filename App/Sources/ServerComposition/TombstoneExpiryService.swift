import Logging
import ServiceLifecycle
import SyncServer

/// Forgets expired tombstones every `interval` (first after one interval, once the database's
/// migrations have run) until the server stops. A failed run is logged and tried again at the
/// next interval: expiry is housekeeping, never a reason to stop serving.
struct TombstoneExpiryService: Service {
    let expire: any ExpireTombstonesUseCase
    let interval: Duration
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                do {
                    let count = try await expire.execute()
                    if count > 0 { logger.info("tombstones expired", metadata: ["count": "\(count)"]) }
                } catch {
                    logger.warning("tombstone expiry failed; trying again later", metadata: ["error": "\(type(of: error))"])
                }
            }
        }
    }
}
