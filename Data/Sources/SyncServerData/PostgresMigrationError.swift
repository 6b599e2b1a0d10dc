import PostgresNIO

/// Why the server could not create or upgrade its tables at start, as the operator is told it
/// (one sentence, the database's own words only as printable ASCII); nothing was changed: each
/// migration runs in one transaction.
public enum PostgresMigrationError: Error, Equatable, CustomStringConvertible {
    /// The role may not create tables in the database's schema (SQLSTATE 42501).
    case notPermitted(reason: String)
    /// Anything else the database refused.
    case refused(reason: String)
    /// A newer release upgraded the tables past what this one knows; nothing is served.
    case newerSchema(database: Int, known: Int)

    public var description: String {
        switch self {
        case .notPermitted(let reason):
            "the database role may not create the server's tables (\(reason)): make the role the database's owner "
                + "(createdb -O ROLE DATABASE), or grant it CREATE on schema public"
        case .refused(let reason): "cannot create or upgrade the server's tables: \(reason)"
        case .newerSchema(let database, let known):
            "the database's tables are at schema version \(database), newer than this tokens-server knows (\(known)): "
                + "run the release that upgraded them, or restore a backup made before"
        }
    }

    /// `error` (a query's, or a transaction's around it) as the operator is told it.
    static func of(_ error: any Error) -> PostgresMigrationError {
        if let error = error as? PostgresMigrationError { return error }
        if let error = (error as? PostgresTransactionError)?.closureError as? PostgresMigrationError { return error }
        guard let query = queryError(in: error) else { return .refused(reason: PostgresStartupCheck.printable("\(error)")) }
        let message = PostgresStartupCheck.printable(query.serverInfo?[.message] ?? "\(query.code)")
        return query.serverInfo?[.sqlState] == "42501" ? .notPermitted(reason: message) : .refused(reason: message)
    }

    /// The query's error inside a transaction's (its BEGIN, its body or its COMMIT).
    private static func queryError(in error: any Error) -> PSQLError? {
        if let error = error as? PSQLError { return error }
        guard let transaction = error as? PostgresTransactionError else { return nil }
        return [transaction.closureError, transaction.beginError, transaction.commitError].lazy.compactMap { $0.flatMap(queryError(in:)) }
            .first
    }
}
