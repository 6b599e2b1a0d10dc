/// What the server lets connections take, so that slow or idle clients cannot take it down: how
/// many connections it keeps at once, in all and from one address, and how long a connection
/// may take to send a whole request (head and body) once opened, and how long a kept-alive
/// connection may idle between an answer and the next request.
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections open at once, in all (below the process's descriptor limit).
    public var maxConnections: Int
    /// Connections open at once from one address (trusted proxies are not counted).
    public var maxPerAddress: Int
    /// The longest a new connection may take to send a whole request, and a later request its
    /// body once its head arrived.
    public var requestTimeout: Duration
    /// The longest a kept-alive connection may idle after an answer: longer than clients keep
    /// idle connections in their pools (AsyncHTTPClient: 60 s), so that the client closes first
    /// and never sends a request on a connection the server is closing.
    public var idleTimeout: Duration
    /// Addresses not held to `maxPerAddress`: the reverse proxies every client comes through.
    public var unlimitedAddresses: Set<String>

    public static let defaultMaxConnections = 4096
    public static let defaultMaxPerAddress = 64
    public static let defaultRequestTimeout: Duration = .seconds(15)
    public static let defaultIdleTimeout: Duration = .seconds(75)

    public init(
        maxConnections: Int = defaultMaxConnections, maxPerAddress: Int = defaultMaxPerAddress,
        requestTimeout: Duration = defaultRequestTimeout, idleTimeout: Duration = defaultIdleTimeout, unlimitedAddresses: Set<String> = []
    ) {
        self.maxConnections = maxConnections
        self.maxPerAddress = maxPerAddress
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.unlimitedAddresses = unlimitedAddresses
    }
}
