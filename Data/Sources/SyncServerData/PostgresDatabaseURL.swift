import Foundation
import PostgresNIO

/// A `postgres://user:password@host:port/database?sslmode=…&pool_max_conns=…` URL read into the
/// client's configuration. Errors name what is wrong, never the password.
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

        public var description: String {
            switch self {
            case .notAURL: "the database URL is not a URL (expected postgres://user:password@host:port/database)"
            case .wrongScheme: "the database URL must start with postgres:// or postgresql://"
            case .missingHost: "the database URL names no host"
            case .unknownSSLMode(let mode): "the database URL's sslmode '\(mode)' is not one of disable, prefer, require"
            case .badPoolSize(let size): "the database URL's pool_max_conns '\(size)' is not a number of connections from 1 to 1000"
            }
        }
    }

    /// The parts of a URL, checked.
    struct Parts {
        let host: String
        let port: Int
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
        guard let components = URLComponents(string: text) else { throw .notAURL }
        guard ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "") else { throw .wrongScheme }
        guard let host = components.host, !host.isEmpty else { throw .missingHost }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        guard let tls = TLSPolicy(sslmode: mode) else { throw .unknownSSLMode(mode) }
        let size = components.queryItems?.first { $0.name == "pool_max_conns" }
        guard let poolSize = size.map({ Int($0.value ?? "") }) ?? defaultPoolSize, (1...1000).contains(poolSize) else {
            throw .badPoolSize(size?.value ?? "")
        }
        return Parts(
            host: host, port: components.port ?? 5432, username: components.user?.removingPercentEncoding ?? "postgres",
            password: components.password?.removingPercentEncoding, database: database.isEmpty ? nil : database, tls: tls,
            poolSize: poolSize)
    }

    public static func configuration(from text: String) throws(Problem) -> PostgresClient.Configuration {
        let parts = try parts(from: text)
        let tls: PostgresClient.Configuration.TLS =
            switch parts.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        var configuration = PostgresClient.Configuration(
            host: parts.host, port: parts.port, username: parts.username, password: parts.password, database: parts.database, tls: tls)
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
