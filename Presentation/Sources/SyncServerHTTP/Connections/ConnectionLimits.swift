/// What the server lets connections take, so that slow or idle clients cannot take it down: how
/// many connections it keeps at once, in all and from one address, and how long a connection
/// may take to send a whole request (head and body), counted from when it opened or from the end
/// of the previous answer (which makes it the idle limit of a kept-alive connection too).
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections open at once, in all (below the process's descriptor limit).
    public var maxConnections: Int
    /// Connections open at once from one address (trusted proxies are not counted).
    public var maxPerAddress: Int
    /// The longest a connection may take to send a request, or stay idle between requests.
    public var requestTimeout: Duration
    /// Addresses not held to `maxPerAddress`: the reverse proxies every client comes through.
    public var unlimitedAddresses: Set<String>

    public static let defaultMaxConnections = 4096
    public static let defaultMaxPerAddress = 64
    public static let defaultRequestTimeout: Duration = .seconds(15)

    public init(
        maxConnections: Int = defaultMaxConnections, maxPerAddress: Int = defaultMaxPerAddress,
        requestTimeout: Duration = defaultRequestTimeout, unlimitedAddresses: Set<String> = []
    ) {
        self.maxConnections = maxConnections
        self.maxPerAddress = maxPerAddress
        self.requestTimeout = requestTimeout
        self.unlimitedAddresses = unlimitedAddresses
    }
}
