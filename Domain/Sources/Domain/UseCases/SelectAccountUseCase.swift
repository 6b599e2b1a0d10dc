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
/// then as an id prefix, so "face" finds Facebook whatever the ids are.
public struct DefaultSelectAccountUseCase: SelectAccountUseCase {
    /// The shortest id prefix accepted (`list` shows eight digits).
    public static let minimumIDPrefix = 4

    private let search: any SearchAccountsUseCase
    private let listAccounts: any ListAccountsUseCase

    public init(search: any SearchAccountsUseCase, listAccounts: any ListAccountsUseCase) {
        self.search = search
        self.listAccounts = listAccounts
    }

    public func execute(query: String) async throws -> Account {
        let matches = try await search.execute(query: query)
        guard matches.isEmpty else { return try Self.select(query, in: matches) }
        return try Self.select(query, in: matches, among: try await listAccounts.execute())
    }

    /// Whether `query` can be (a prefix of) an account id: hex digits and dashes, 4 or more digits.
    public static func isIDPrefix(_ query: String) -> Bool {
        let digits = query.filter { $0 != "-" }
        return digits.count >= minimumIDPrefix && digits.allSatisfy(\.isHexDigit)
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
        if matches.isEmpty, isIDPrefix(query) {
            let prefix = query.lowercased()
            let owners = accounts.filter { $0.id.uuidString.lowercased().hasPrefix(prefix) }
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
