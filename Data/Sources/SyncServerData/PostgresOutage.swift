import PostgresNIO
import SyncServer
// The pool's own errors (its circuit breaker, a pool shut down when the primary moves) are
// thrown as they are, not as PSQLError, by `withConnection` and `withTransaction`.
import _ConnectionPoolModule

/// The PostgreSQL errors that mean the database cannot serve now, rather than a request or a
/// query that is wrong: the connection's failures, and the SQLSTATEs of an unreachable, full or
/// read-only database.
enum PostgresOutage {
    /// Any error of the client: a PSQLError, or the pool's own.
    static func of(any error: any Error) -> StoreOutage? {
        if let error = error as? PSQLError { return of(error) }
        if error is ConnectionPoolError { return .unreachable }
        return nil
    }

    static func of(_ error: PSQLError) -> StoreOutage? {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return .unreachable
        case .server:
            return error.serverInfo?[.sqlState].flatMap(of(sqlState:))
        default:
            return nil
        }
    }

    /// By SQLSTATE: class 08 (connection exception), shutting down or starting up, too many
    /// connections; disk full; a read-only transaction.
    static func of(sqlState: String) -> StoreOutage? {
        switch sqlState {
        case "53100": .full
        case "25006": .readOnly
        case "57P01", "57P02", "57P03", "53300": .unreachable
        default: sqlState.hasPrefix("08") ? .unreachable : nil
        }
    }
}
