import Foundation
import PostgresNIO

/// A `postgres://user:password@host:port/database?sslmode=…&pool_max_conns=…` URL read into the
/// client's configuration. As libpq's, it may name several hosts (`host1:5432,host2:5432`): a
/// primary and its standbys, of which the server uses the one that takes writes (libpq's
/// `target_session_attrs=read-write`, which is how the server always connects). Errors name what
/// is wrong, never the password.
public enum PostgresDatabaseURL {
    /// Connections each server instance keeps open when the URL does not say (`pool_max_conns`).
    public static let defaultPoolSize = 10

    /// Why a URL was refused.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notAURL
        case wrongScheme
        case missingHost
        case unknownSSLMode(String)
        case badPoolSize(String)
        case badHostList(String)
        case unknownSessionAttributes(String)

        public var description: String {
            switch self {
            case .notAURL: "the database URL is not a URL (expected postgres://user:password@host:port/database)"
            case .wrongScheme: "the database URL must start with postgres:// or postgresql://"
            case .missingHost: "the database URL names no host"
            case .unknownSSLMode(let mode): "the database URL's sslmode '\(mode)' is not one of disable, prefer, require"
            case .badPoolSize(let size): "the database URL's pool_max_conns '\(size)' is not a number of connections from 1 to 1000"
            case .badHostList(let host): "the database URL's host list has a bad entry '\(host)' (expected host:port,host:port)"
            case .unknownSessionAttributes(let value):
                "the database URL's target_session_attrs '\(value)' is not read-write or primary (the server always writes)"
            }
        }
    }

    /// One host of the URL, with its port.
    struct Endpoint: Equatable, CustomStringConvertible {
        let host: String
        let port: Int
        var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// The parts of a URL, checked.
    struct Parts {
        /// The hosts in the URL's order: one, or a primary and its standbys in any order.
        let endpoints: [Endpoint]
        let username: String
        let password: String?
        let database: String?
        let tls: TLSPolicy
        let poolSize: Int
    }

    /// What the URL's `sslmode` asks of TLS: libpq's six modes in the three ways postgres-nio
    /// can honour them (`verify-ca` and `verify-full` verify, as `require` does here).
    enum TLSPolicy {
        case disable, prefer, require

        init?(sslmode: String) {
            switch sslmode {
            case "disable": self = .disable
            case "prefer", "allow": self = .prefer
            case "require", "verify-ca", "verify-full": self = .require
            default: return nil
            }
        }
    }

    static func parts(from text: String) throws(Problem) -> Parts {
        let (single, listed) = try hostList(in: text)
        guard let components = URLComponents(string: single) else { throw .notAURL }
        guard ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "") else { throw .wrongScheme }
        guard let host = components.host, !host.isEmpty else { throw .missingHost }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        guard let tls = TLSPolicy(sslmode: mode) else { throw .unknownSSLMode(mode) }
        let size = components.queryItems?.first { $0.name == "pool_max_conns" }
        guard let poolSize = size.map({ Int($0.value ?? "") }) ?? defaultPoolSize, (1...1000).contains(poolSize) else {
            throw .badPoolSize(size?.value ?? "")
        }
        let attributes = components.queryItems?.first { $0.name == "target_session_attrs" }?.value ?? "read-write"
        guard ["read-write", "primary"].contains(attributes) else { throw .unknownSessionAttributes(attributes) }
        let first = Endpoint(host: host, port: components.port ?? 5432)
        return Parts(
            endpoints: [first] + listed, username: components.user?.removingPercentEncoding ?? "postgres",
            password: components.password?.removingPercentEncoding, database: database.isEmpty ? nil : database, tls: tls,
            poolSize: poolSize)
    }

    /// The text with its host list cut to the first host (which `URLComponents` can read), and
    /// the other hosts, read.
    private static func hostList(in text: String) throws(Problem) -> (String, [Endpoint]) {
        guard let start = text.range(of: "://")?.upperBound else { return (text, []) }
        let authorityEnd = text[start...].firstIndex { "/?#".contains($0) } ?? text.endIndex
        let authority = text[start..<authorityEnd]
        let hostsStart = authority.lastIndex(of: "@").map { text.index(after: $0) } ?? start
        let hosts = text[hostsStart..<authorityEnd].split(separator: ",", omittingEmptySubsequences: false)
        guard hosts.count > 1 else { return (text, []) }
        let others = try hosts.dropFirst().map { (entry) throws(Problem) -> Endpoint in try endpoint(String(entry)) }
        return (String(text[..<hostsStart]) + hosts[0] + text[authorityEnd...], others)
    }

    /// `host`, `host:port` or `[v6]:port`.
    private static func endpoint(_ text: String) throws(Problem) -> Endpoint {
        var host = Substring(text)
        var port = 5432
        if let colon = text.lastIndex(of: ":"), !text[colon...].contains("]") {
            guard let number = Int(text[text.index(after: colon)...]), (1...65535).contains(number) else { throw .badHostList(text) }
            (host, port) = (text[..<colon], number)
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains(where: { "[]@/ ".contains($0) }) else { throw .badHostList(text) }
        return Endpoint(host: String(host), port: port)
    }

    /// The client's configuration for the URL's first host.
    public static func configuration(from text: String) throws(Problem) -> PostgresClient.Configuration {
        try configurations(from: text)[0]
    }

    /// The client's configuration for each of the URL's hosts, in the URL's order.
    public static func configurations(from text: String) throws(Problem) -> [PostgresClient.Configuration] {
        let parts = try parts(from: text)
        return parts.endpoints.map { configuration(parts, $0) }
    }

    static func configuration(_ parts: Parts, _ endpoint: Endpoint) -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch parts.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        var configuration = PostgresClient.Configuration(
            host: endpoint.host, port: endpoint.port, username: parts.username, password: parts.password, database: parts.database, tls: tls
        )
        // A pool of a fixed size, opened at start and kept: the pool starts a timer (a sleeping
        // task) at every release of a connection above its minimum, to close it when idle, and
        // under load that was a timer per query, 5 % of the server's CPU. Keep-alive is off (a
        // timer per release too); a dropped connection is replaced by the pool on its own.
        configuration.options.maximumConnections = parts.poolSize
        configuration.options.minimumConnections = parts.poolSize
        configuration.options.keepAliveBehavior = nil
        configuration.options.connectionIdleTimeout = .seconds(10)
        return configuration
    }
}
