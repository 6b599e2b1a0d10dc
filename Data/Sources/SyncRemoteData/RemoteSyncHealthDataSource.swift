import Domain
import Foundation
import OpenAPIRuntime

/// Domain's `SyncServerHealth` through the generated client: the server's liveness answer (no
/// token), timed on this machine's clock so that its `serverTime` measures the clock's offset.
public struct RemoteSyncHealthDataSource: SyncServerHealth {
    private let api: any APIProtocol
    private let clock: any WallClock

    init(api: any APIProtocol, clock: any WallClock) {
        self.api = api
        self.clock = clock
    }

    /// The server at `server` (its base URL, e.g. https://sync.example/v1), over `transport`.
    public static func make(server: URL, transport: any ClientTransport, clock: any WallClock) -> RemoteSyncHealthDataSource {
        RemoteSyncHealthDataSource(api: Client(serverURL: server, configuration: .wire, transport: transport), clock: clock)
    }

    public func check() async throws(SyncError) -> SyncServerHealthReport {
        let sent = clock.now()
        let output: Operations.GetHealth.Output
        do { output = try await api.getHealth() } catch { throw RemoteSyncDataSource.transportError(error) }
        let received = clock.now()
        switch output {
        case .ok(let ok):
            guard case .json(let health) = ok.body else { throw .incompatible }
            return SyncServerHealthReport(
                time: ServerTimeSample(sent: sent, received: received, serverDate: health.serverTime), version: health.version)
        case .default(let status, _): throw RemoteSyncDataSource.error(status: status)
        }
    }
}
