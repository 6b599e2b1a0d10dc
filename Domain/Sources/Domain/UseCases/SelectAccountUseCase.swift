import Foundation

/// Picks the one account a query means (the command line's QUERY): a search over issuer,
/// account name and note, or else an account's id (the full id, or a prefix of it of at least
/// four hex digits).
public protocol SelectAccountUseCase: Sendable {
    func execute(query: String) async throws -> Account
}

/// Why a query picks no single account.
public enum AccountSelectionError: Error, Equatable, Sendable {
    case noMatch(query: String)
    /// Every account the query could mean, in list order.
    case ambiguous(query: String, candidates: [Account])
}

/// The SelectAccount use case: text first, then ids. An account whose issuer or display name
/// equals the query exactly wins over partial matches. Only when the words match nothing is the
/// query read as a whole display name ("Steam (gaben)", as the ambiguity message prints it) and
/// then as an id prefix, so "face" finds Facebook whatever the ids are. Given the repository, an
/// id prefix is looked up in the store (the vault reads only the ids and the entry it names)
/// instead of listing every account, and a whole display name is looked for among the accounts
/// its words find (a query with no "(" that matches no words finds nothing: a display name
/// without one is a single field).
public struct DefaultSelectAccountUseCase: SelectAccountUseCase {
    private let search: any SearchAccountsUseCase
    private let listAccounts: any ListAccountsUseCase
    private let repository: (any AccountRepository)?

    public init(search: any SearchAccountsUseCase, listAccounts: any ListAccountsUseCase, repository: (any AccountRepository)? = nil) {
        self.search = search
        self.listAccounts = listAccounts
        self.repository = repository
    }

    public func execute(query: String) async throws -> Account {
        let matches = try await search.execute(query: query)
        guard matches.isEmpty else { return try Self.select(query, in: matches) }
        // A whole display name without "(" is one of its account's fields, which the words
        // matched already: an id prefix (hex digits and dashes) is left to try as an id, and
        // any other such query matches nothing.
        let prefix = AccountIDPrefix(query)
        if let prefix, let repository {
            return try Self.select(
                query, in: [], among: DefaultListAccountsUseCase.ordered(try await repository.accounts(idPrefix: prefix)))
        }
        if prefix == nil {
            // A whole display name ("Issuer (name)") holds its account's words between the
            // parentheses and spaces: those words, searched, find every account it can name.
            guard let words = Self.displayNameWords(query) else { throw AccountSelectionError.noMatch(query: query) }
            return try Self.select(query, in: matches, among: try await search.execute(query: words))
        }
        return try Self.select(query, in: matches, among: try await listAccounts.execute())
    }

    /// The words of a query that may be a whole display name, to search with: the folded query
    /// with its parentheses read as spaces; nil without a "(" (a display name without one is a
    /// single field, which the words matched already). "Issuer (name)" joins its two fields
    /// with " (" and ")", so each word of it lies within the issuer or the name.
    static func displayNameWords(_ query: String) -> String? {
        let folded = AccountQuery.fold(query)
        guard folded.contains("(") else { return nil }
        return String(folded.map { $0 == "(" || $0 == ")" ? " " : $0 })
    }

    /// The single account `query` means among the text's `matches`; when there are none, by
    /// whole display name, then by id, among `accounts`.
    public static func select(
        _ query: String, in matches: [Account], among accounts: [Account] = []
    ) throws(AccountSelectionError) -> Account {
        if matches.isEmpty {
            let folded = AccountQuery.fold(query)
            let named = accounts.filter { AccountQuery.fold($0.displayName) == folded }
            if named.count == 1 { return named[0] }
            if named.count > 1 { throw .ambiguous(query: query, candidates: named) }
        }
        if matches.isEmpty, let prefix = AccountIDPrefix(query) {
            let owners = accounts.filter { prefix.matches($0.id) }
            if owners.count == 1 { return owners[0] }
            if owners.count > 1 { throw .ambiguous(query: query, candidates: owners) }
        }
        if matches.count == 1 { return matches[0] }
        guard !matches.isEmpty else { throw .noMatch(query: query) }
        let folded = AccountQuery.fold(query)
        let exact = matches.filter {
            AccountQuery.fold($0.issuer) == folded || AccountQuery.fold($0.displayName) == folded
        }
        if exact.count == 1 { return exact[0] }
        throw .ambiguous(query: query, candidates: matches)
    }
}
