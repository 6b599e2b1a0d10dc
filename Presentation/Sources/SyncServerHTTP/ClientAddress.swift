import Foundation

/// Where a request came from, for the enrolment rate limit. Behind reverse proxies the peer is the
/// proxy, so a request from a trusted proxy is traced back through `X-Forwarded-For`: from its
/// right end (the hop the proxy itself saw), past every trusted proxy, to the first address no
/// proxy of ours vouches for. Anything else in the header is the client's to write, so it is never
/// believed: a request from an untrusted peer is that peer, and a malformed hop stops the walk at
/// the proxy (its clients then share one limit, which no client can dodge).
public struct ClientAddress: Sendable, Equatable {
    /// Proxies' addresses as the server sees them (e.g. `127.0.0.1`, `::1`).
    public let trustedProxies: Set<String>

    public init(trustedProxies: Set<String>) {
        self.trustedProxies = trustedProxies
    }

    /// The client's address from the peer's and the `X-Forwarded-For` header fields (each may hold
    /// a comma-separated list).
    public func resolve(peer: String?, forwardedFor: [String]) -> String? {
        guard let peer, trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var address = peer
        for hop in hops.reversed() {
            guard Self.isAddress(hop) else { return address }
            address = hop
            if !trustedProxies.contains(hop) { return hop }
        }
        return address
    }

    /// An IPv4 or IPv6 address in text: hex digits, dots and colons only, of a sane length.
    static func isAddress(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 45 && text.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" }
    }
}
