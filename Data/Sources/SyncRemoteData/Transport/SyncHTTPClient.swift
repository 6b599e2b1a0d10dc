import AsyncHTTPClient
import Domain
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import OpenAPIRuntime

/// The HTTP client sync talks through: AsyncHTTPClient under the generated client, every request
/// bounded by `timeout` (connecting, each read, and the whole answer) and every answer by
/// `maxAnswerBytes`, the server's certificate checked against the system's roots or, when
/// given, only against the CA certificates in `caFile` (PEM). Shut it down when done.
public final class SyncHTTPClient: Sendable {
    private let client: HTTPClient
    /// What the generated client sends its requests through.
    public let transport: any ClientTransport
    /// The largest answer taken: a full page of the largest entries is about 11 MiB.
    public static let maxAnswerBytes = 32 << 20

    public init(timeout: Duration = .seconds(30), caFile: String? = nil) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile { tls.trustRoots = .file(caFile) }
        let seconds = Int64(timeout.components.seconds)
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, timeout: .init(connect: .seconds(min(seconds, 10)), read: .seconds(seconds)))
        // A failed connection is reported at once, not retried until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        transport = BoundedTransport(
            base: WholeBodyTransport(client: client, timeout: .seconds(seconds)),
            maxBytes: Self.maxAnswerBytes, deadline: .seconds(seconds))
    }

    /// Closes the client's connections; no request may follow.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// A request that got no answer, as the user sees it: offline, timed out or an untrusted
    /// server, told apart by the transport's own error types.
    static func classify(_ error: any Error) -> SyncError? {
        switch error {
        case let known as SyncError: return known
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError: return .insecureConnection
        case let client as HTTPClientError:
            if [.connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout].contains(client) { return .timedOut }
            return .offline
        case is NIOConnectionError, is IOError, is ChannelError: return .offline
        default: return nil
        }
    }
}
