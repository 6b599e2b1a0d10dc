import Domain
import Foundation

/// Opens a `SyncConnection` (one HTTP client) to a server, each request bounded by `timeout`.
struct SyncConnector: SyncServerConnector {
    let timeout: Duration
    let clock: any WallClock

    func connect(to server: URL, caFile: String?) -> any SyncServerConnection {
        SyncConnection(server: server, caFile: caFile, timeout: timeout, clock: clock)
    }
}
