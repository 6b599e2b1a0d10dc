import AppComposition
import Domain

/// Picks the one account a command-line query means: a search over issuer, account name and
/// note, or else an account's id (the full id `list --json` prints, or a prefix of it of at
/// least four hex digits, as `list` shows eight).
enum AccountSelection {
    /// The shortest id prefix accepted.
    static let minimumIDPrefix = 4

    /// Searches the container's accounts and returns the one `query` means.
    static func find(_ query: String, in container: any AppContainer) async throws -> Account {
        let matches = try await container.makeSearchAccountsUseCase().execute(query: query)
        guard matches.isEmpty, isIDPrefix(query) else { return try select(query, in: matches) }
        return try select(query, in: matches, byID: try await container.makeListAccountsUseCase().execute())
    }

    /// Whether `query` can be (a prefix of) an account id: hex digits and dashes, 4 or more digits.
    static func isIDPrefix(_ query: String) -> Bool {
        let digits = query.filter { $0 != "-" }
        return digits.count >= minimumIDPrefix && digits.allSatisfy(\.isHexDigit)
    }

    /// The single account matching `query`. An account whose issuer or display name equals the
    /// query exactly wins over partial matches. When the text matches nothing, an id prefix is
    /// looked for among `byID`: text always wins, so "face" finds Facebook whatever the ids are.
    static func select(_ query: String, in matches: [Account], byID accounts: [Account] = []) throws -> Account {
        if matches.isEmpty, isIDPrefix(query) {
            let prefix = query.lowercased()
            let owners = accounts.filter { $0.id.uuidString.lowercased().hasPrefix(prefix) }
            if owners.count == 1 { return owners[0] }
            if owners.count > 1 { throw ambiguous(query, owners) }
        }
        if matches.count == 1 { return matches[0] }
        guard !matches.isEmpty else { throw CLIError("no account matches '\(query)'", status: .noMatch) }
        let folded = AccountQuery.fold(query)
        let exact = matches.filter {
            AccountQuery.fold($0.issuer) == folded || AccountQuery.fold($0.displayName) == folded
        }
        if exact.count == 1 { return exact[0] }
        throw ambiguous(query, matches)
    }

    /// "2 accounts match 'github': GitHub (me) [3f2a91c0], GitHub (me) [77b1e2d4]; …"
    private static func ambiguous(_ query: String, _ matches: [Account]) -> CLIError {
        let names = matches.prefix(5).map { "\($0.displayName) [\($0.shortID)]" }.joined(separator: ", ")
        let more = matches.count > 5 ? ", …" : ""
        return CLIError(
            "\(matches.count) accounts match '\(query)': \(names)\(more); be more specific, or give the id in brackets",
            status: .ambiguous)
    }
}
