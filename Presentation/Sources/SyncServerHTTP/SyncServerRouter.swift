import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import SyncServer

/// Builds the sync server's routes: the API document's operations under /v1, behind request
/// metrics, an access log, the body limit, problem answers for every error, and bearer
/// authentication.
public enum SyncServerRouter {
    /// Where the API document's paths start (its `servers` URL).
    static let basePath = "/v1"

    /// The largest request body: 100 changes of the largest ciphertext, in base64, with room.
    public static let maxBodyBytes = 4 * 1024 * 1024

    /// How the generated code writes JSON: dates by `WireDates`; compact, in the schema's key
    /// order, `/` unescaped (the runtime's default pretty-prints and sorts keys, a sixth of the
    /// time of a pull of 20 entries; no client reads the layout, and none embeds it in HTML).
    static let configuration = Configuration(dateTranscoder: WireDates(), jsonEncodingOptions: [.withoutEscapingSlashes])

    /// `trustedProxies`: the reverse proxies whose `X-Forwarded-For` names the client.
    /// `accessLog`: a line per answered request at info (else at debug).
    public static func make(
        useCases: SyncServerUseCases, version: String, logger: Logger, maxBodyBytes: Int = maxBodyBytes, trustedProxies: Set<String> = [],
        bodyBudget: BodyBudget = BodyBudget(), accessLog: Bool = true
    ) throws -> Router<SyncRequestContext> {
        let router = Router(context: SyncRequestContext.self)
        // Requests by route template (never a path with ids in it) and status, and their latency.
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: AccessLogMiddleware(clientAddress: ClientAddress(trustedProxies: trustedProxies), enabled: accessLog))
        router.add(
            middleware: RequestLimitsMiddleware(
                maxBodyBytes: maxBodyBytes, clientAddress: ClientAddress(trustedProxies: trustedProxies),
                authenticate: useCases.authenticate,
                budget: bodyBudget))
        try SyncAPI(useCases: useCases, version: version, audit: AuditLog(logger: logger)).registerHandlers(
            on: router, serverURL: URL(string: basePath)!, configuration: configuration,
            middlewares: [ProblemMiddleware(logger: logger)])
        return router
    }
}
