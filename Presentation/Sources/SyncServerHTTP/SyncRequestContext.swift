import Hummingbird
import NIOCore

/// Hummingbird's per-request context for the sync server: the core storage, the peer's
/// address (for the enrolment rate limit) and when its connection closes (for long-polls).
public struct SyncRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address, if the transport knows it.
    public let address: String?
    /// Completes when the request's connection closes.
    public let closed: EventLoopFuture<Void>

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        address = source.channel.remoteAddress?.ipAddress
        closed = source.channel.closeFuture
    }
}

/// The address of the request being handled, for the handler.
enum RequestAddress {
    @TaskLocal static var current: String?
}
