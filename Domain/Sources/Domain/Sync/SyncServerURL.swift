import Foundation

/// The rule for a sync server's address: HTTPS anywhere, plain HTTP only on this machine's
/// loopback interface, where nothing leaves the machine. Loopback is decided on the parsed host:
/// an IPv4 address in 127.0.0.0/8 (four decimal octets), the IPv6 address ::1, or exactly
/// `localhost`; a name that merely starts with "127." (127.example.invalid) is a remote name.
public enum SyncServerURL {
    /// Why an address is refused, in the user's terms.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        case notAServerURL
        case plainHTTPOffThisMachine
        case unsupportedScheme

        public var description: String {
            switch self {
            case .notAServerURL: "not a server URL (https://HOST[:PORT])"
            case .plainHTTPOffThisMachine: "HTTPS is required for a server that is not on this machine"
            case .unsupportedScheme: "only https:// (or http:// on this machine) is supported"
            }
        }
    }

    /// `text` as a server URL, if the rule allows it.
    public static func checked(_ text: String) throws(Refusal) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil, url.user == nil
        else { throw .notAServerURL }
        switch scheme {
        case "https": return url
        case "http" where isLoopback(host): return url
        case "http": throw .plainHTTPOffThisMachine
        default: throw .unsupportedScheme
        }
    }

    /// Whether `host` (as a URL gives it; IPv6 in brackets or not) is this machine's loopback.
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" { return true }
        if let octets = ipv4(bare) { return octets[0] == 127 }
        return ipv6(bare) == Array(repeating: 0, count: 7) + [1]
    }

    /// Four decimal octets (no leading zeros beyond a lone 0), or nil.
    static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let octets = parts.compactMap { part -> UInt8? in
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                part == "0" || !part.hasPrefix("0")
            else { return nil }
            return UInt8(part)
        }
        return octets.count == 4 ? octets : nil
    }

    /// Eight 16-bit groups (with at most one "::"), or nil; no zone, no embedded IPv4.
    static func ipv6(_ text: String) -> [UInt16]? {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            let values = fields.compactMap { field in (1...4).contains(field.count) ? UInt16(field, radix: 16) : nil }
            return values.count == fields.count ? values : nil
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
