import Hummingbird

/// Hummingbird's per-request context for the sync server: the core storage and the peer's
/// address (for the enrolment rate limit).
public struct SyncRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address, if the transport knows it.
    public let address: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        address = source.channel.remoteAddress?.ipAddress
    }
}

/// The address of the request being handled, for the handler.
enum RequestAddress {
    @TaskLocal static var current: String?
}
