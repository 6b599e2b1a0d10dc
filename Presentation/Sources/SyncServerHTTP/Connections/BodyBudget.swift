import Synchronization

/// The request bodies the server may hold at once, in bytes: each request reserves what its body
/// may take (its declared length, or its route's limit) before a byte of it is read, and gives
/// it back when answered. Past the budget a request is answered 503 with Retry-After, read no
/// further, so that bodies in flight never exceed it whatever the number of clients.
public final class BodyBudget: Sendable {
    public let bytes: Int
    private let used = Mutex(0)

    /// 64 MiB: 16 pushes of the largest size at once, and many more of the usual one.
    public static let defaultBytes = 64 * 1024 * 1024

    public init(bytes: Int = defaultBytes) { self.bytes = bytes }

    /// Reserves `count` bytes; false (nothing reserved) when they do not fit.
    public func reserve(_ count: Int) -> Bool {
        used.withLock { used in
            guard used + count <= bytes else { return false }
            used += count
            return true
        }
    }

    /// Gives back what `reserve` took.
    public func release(_ count: Int) { used.withLock { $0 -= count } }

    /// Bytes reserved now.
    public var inFlight: Int { used.withLock { $0 } }
}
