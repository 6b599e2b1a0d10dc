import PostgresNIO
import SyncServer

/// The PostgreSQL errors that mean the database cannot serve now, rather than a request or a
/// query that is wrong: the connection's failures, and the SQLSTATEs of an unreachable, full or
/// read-only database.
enum PostgresOutage {
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
