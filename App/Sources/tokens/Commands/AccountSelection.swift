import AppComposition
import Domain

/// Picks the one account a command-line query means.
enum AccountSelection {
    /// Searches the container's accounts and returns the one `query` means.
    static func find(_ query: String, in container: any AppContainer) async throws -> Account {
        try select(query, in: try await container.makeSearchAccountsUseCase().execute(query: query))
    }

    /// The single account matching `query` (issuer, account name or note). An account whose
    /// issuer or display name equals the query exactly wins over partial matches.
    static func select(_ query: String, in matches: [Account]) throws -> Account {
        if matches.count == 1 { return matches[0] }
        guard !matches.isEmpty else { throw CLIError("no account matches '\(query)'", status: .noMatch) }
        let folded = AccountQuery.fold(query)
        let exact = matches.filter {
            AccountQuery.fold($0.issuer) == folded || AccountQuery.fold($0.displayName) == folded
        }
        if exact.count == 1 { return exact[0] }
        let names = matches.prefix(5).map(\.displayName).joined(separator: ", ")
        let more = matches.count > 5 ? ", …" : ""
        throw CLIError("\(matches.count) accounts match '\(query)': \(names)\(more); be more specific", status: .ambiguous)
    }
}
