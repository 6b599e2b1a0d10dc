import Logging
import ServiceLifecycle
import SyncServer

/// Writes the devices seen every `interval`, and once more when the server stops (before the
/// database's connections close: services stop in the reverse order they were added). A failed
/// write is logged and kept for the next one: it is never a reason to stop serving.
struct ActivityService: Service {
    let record: RecordDeviceActivityUseCase
    let interval: Duration
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil { await write() }
        }
        await write()
    }

    private func write() async {
        do {
            _ = try await record.execute()
        } catch {
            logger.warning("writing when devices were last seen failed; trying again later", metadata: ["error": "\(type(of: error))"])
        }
    }
}
