import CoreMetrics
import Hummingbird
import Logging
import Prometheus

/// `GET /metrics` in Prometheus's text format, on its own address (loopback by default), apart
/// from the API: what swift-metrics records in the server's layers (requests by route template
/// and status, latency, pushes, refusals, waiting pulls, database calls and errors). The backend
/// is bootstrapped once per process, and only when an endpoint is made: without one, swift-metrics
/// records nothing.
enum MetricsEndpoint {
    /// The registry every metric of this process goes to.
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusNaming(registry: registry))
        return registry
    }()

    /// The endpoint as a service of the server's group; `running` hears its port once it listens.
    static func make(
        host: String, port: Int, logger: Logger, running: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let registry = registry
        let router = Router()
        router.get("/metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: MetricsHelp.adding(to: registry.emitToString()))))
        }
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "tokens-server-metrics"),
            onServerRunning: { channel in await running(channel.localAddress?.port ?? 0) }, logger: logger)
    }
}
