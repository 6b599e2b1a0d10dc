import Foundation
import PostgresNIO

/// A `postgres://user:password@host:port/database?sslmode=…` URL read into the client's
/// configuration. Errors name what is wrong, never the password.
public enum PostgresDatabaseURL {
    /// Why a URL was refused.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notAURL
        case wrongScheme
        case missingHost
        case unknownSSLMode(String)

        public var description: String {
            switch self {
            case .notAURL: "the database URL is not a URL (expected postgres://user:password@host:port/database)"
            case .wrongScheme: "the database URL must start with postgres:// or postgresql://"
            case .missingHost: "the database URL names no host"
            case .unknownSSLMode(let mode): "the database URL's sslmode '\(mode)' is not one of disable, prefer, require"
            }
        }
    }

    public static func configuration(from text: String) throws(Problem) -> PostgresClient.Configuration {
        guard let components = URLComponents(string: text) else { throw .notAURL }
        guard ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "") else { throw .wrongScheme }
        guard let host = components.host, !host.isEmpty else { throw .missingHost }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch mode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw .unknownSSLMode(mode)
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: components.user?.removingPercentEncoding ?? "postgres",
            password: components.password?.removingPercentEncoding, database: database.isEmpty ? nil : database, tls: tls)
        // The pool starts a timer (a sleeping task) at every release of a connection, and a
        // cancelled one keeps its memory until it would have fired: with the defaults (keep-alive
        // every 30 s, idle connections closed after 60 s) a busy server held a minute of them,
        // 250 MB at a thousand requests a second. Idle connections now close after 10 s, before
        // a keep-alive would have been sent, so there is none.
        configuration.options.keepAliveBehavior = nil
        configuration.options.connectionIdleTimeout = .seconds(10)
        return configuration
    }
}
