import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// tokens-server's first contact with its database, before anything listens or the pool starts:
/// one connection, within a time limit, whose failure is one sentence an operator can act on
/// (never the password; the server's own words only as printable ASCII).
public enum PostgresStartupCheck {
    /// Why the database cannot be used.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case url(PostgresDatabaseURL.Problem)
        case passwordRefused(user: String)
        case userRefused(user: String, reason: String)
        case noSuchDatabase(String)
        case nothingListening(host: String, port: Int)
        case unknownHost(String)
        case noAnswer(host: String, port: Int, seconds: Int)
        case tlsUnsupported(host: String, port: Int)
        case refused(host: String, port: Int, reason: String)

        public var description: String {
            switch self {
            case .url(let problem): "\(problem)"
            case .passwordRefused(let user): "the database refused the password for user \(user)"
            case .userRefused(let user, let reason): "the database refused user \(user): \(reason)"
            case .noSuchDatabase(let name): "the database \(name) does not exist (create it: createdb -O OWNER \(name))"
            case .nothingListening(let host, let port): "nothing answers at \(host):\(port) (is PostgreSQL running there?)"
            case .unknownHost(let host): "the database host \(host) cannot be resolved"
            case .noAnswer(let host, let port, let seconds): "the database at \(host):\(port) did not answer within \(seconds) s"
            case .tlsUnsupported(let host, let port): "the database at \(host):\(port) does not offer TLS, which sslmode=require asks for"
            case .refused(let host, let port, let reason): "cannot use the database at \(host):\(port): \(reason)"
            }
        }
    }

    /// Connects once to the database of `url` and closes the connection; throws why not. With
    /// several hosts (a primary and standbys), one that answers is enough (the server finds the
    /// one that takes writes as it runs); when none does, the first host's failure is told.
    public static func check(url: String, timeout: Duration = .seconds(10)) async throws(Failure) {
        let parts: PostgresDatabaseURL.Parts
        do { parts = try PostgresDatabaseURL.parts(from: url) } catch { throw .url(error) }
        var failures: [Failure] = []
        for endpoint in parts.endpoints {
            do {
                try await check(parts, endpoint, timeout: timeout)
                return
            } catch {
                failures.append(error)
            }
        }
        throw failures[0]
    }

    private static func check(
        _ parts: PostgresDatabaseURL.Parts, _ endpoint: PostgresDatabaseURL.Endpoint, timeout: Duration
    ) async throws(Failure) {
        let seconds = Int(timeout.components.seconds)
        do {
            let connection = try await withThrowingTaskGroup(of: PostgresConnection?.self) { group in
                group.addTask { try await connect(parts, endpoint, timeout: timeout) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let connection else { throw Failure.noAnswer(host: endpoint.host, port: endpoint.port, seconds: seconds) }
            try? await connection.close()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw failure(of: error, parts: parts, endpoint: endpoint, seconds: seconds)
        }
    }

    /// One connection to `endpoint` with the URL's user, database and TLS, or why not (its own
    /// failures are told by the caller: the connection logs nothing).
    static func connect(
        _ parts: PostgresDatabaseURL.Parts, _ endpoint: PostgresDatabaseURL.Endpoint, timeout: Duration
    ) async throws -> PostgresConnection {
        let tls: PostgresConnection.Configuration.TLS =
            switch parts.tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        var configuration = PostgresConnection.Configuration(
            host: endpoint.host, port: endpoint.port, username: parts.username, password: parts.password, database: parts.database,
            tls: tls)
        configuration.options.connectTimeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000)
        let quiet = Logger(label: "tokens.server.startup") { _ in SwiftLogNoOpLogHandler() }
        return try await PostgresConnection.connect(configuration: configuration, id: 0, logger: quiet)
    }

    /// A connection's failure as the operator is told it.
    static func failure(
        of error: any Error, parts: PostgresDatabaseURL.Parts, endpoint: PostgresDatabaseURL.Endpoint, seconds: Int
    ) -> Failure {
        let (host, port) = (endpoint.host, endpoint.port)
        guard let error = error as? PSQLError else { return connectionFailure(error, host: host, port: port, seconds: seconds) }
        switch error.code {
        case .server:
            let message = printable(error.serverInfo?[.message] ?? "")
            switch error.serverInfo?[.sqlState] {
            case "28P01": return .passwordRefused(user: parts.username)
            case "28000": return .userRefused(user: parts.username, reason: message)
            case "3D000": return .noSuchDatabase(parts.database ?? parts.username)
            default: return .refused(host: host, port: port, reason: message)
            }
        case .sslUnsupported: return .tlsUnsupported(host: host, port: port)
        case .authMechanismRequiresPassword:
            return .refused(host: host, port: port, reason: "it asks for a password, and the URL gives none")
        case .connectionError:
            return connectionFailure(error.underlying, host: host, port: port, seconds: seconds)
        default:
            return .refused(host: host, port: port, reason: "\(error.code)")
        }
    }

    /// A failure to reach the database at all: refused, unresolvable, or silent.
    private static func connectionFailure(_ error: (any Error)?, host: String, port: Int, seconds: Int) -> Failure {
        if let error = error as? NIOConnectionError {
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            if refused { return .nothingListening(host: host, port: port) }
            if error.connectionErrors.isEmpty { return .unknownHost(host) }
            return connectionFailure(error.connectionErrors.first?.error, host: host, port: port, seconds: seconds)
        }
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return .nothingListening(host: host, port: port) }
        if let error = error as? ChannelError, case .connectTimeout = error { return .noAnswer(host: host, port: port, seconds: seconds) }
        return .refused(host: host, port: port, reason: printable(error.map { "\($0)" } ?? "the connection failed"))
    }

    /// Text from the database server (or a library), as one line of printable ASCII.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }).prefix(200))
    }
}
