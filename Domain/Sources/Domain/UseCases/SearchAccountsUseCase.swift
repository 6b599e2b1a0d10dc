import Foundation

/// Finds the accounts whose issuer, account name or note match a query (case- and accent-blind).
public protocol SearchAccountsUseCase: Sendable {
    func execute(query: String) async throws -> [Account]
}

/// The SearchAccounts use case: the ListAccounts order, filtered by an AccountQuery. Given the
/// repository, it asks the store for the matches (the vault finds them in its sealed index
/// without reading the other accounts); given only a ListAccounts use case, each call folds
/// every account's text again. A screen that searches at each keystroke keeps the folded text
/// between calls (Presentation's `IndexedSearchAccountsUseCase`).
public struct DefaultSearchAccountsUseCase: SearchAccountsUseCase {
    private let listAccounts: any ListAccountsUseCase
    private let repository: (any AccountRepository)?

    public init(listAccounts: any ListAccountsUseCase) {
        self.listAccounts = listAccounts
        self.repository = nil
    }

    public init(repository: any AccountRepository) {
        self.listAccounts = DefaultListAccountsUseCase(repository: repository)
        self.repository = repository
    }

    public func execute(query: String) async throws -> [Account] {
        let query = AccountQuery(query)
        guard !query.matchesEverything else { return try await listAccounts.execute() }
        if let repository { return DefaultListAccountsUseCase.ordered(try await repository.search(query)) }
        return try await listAccounts.execute().filter(query.matches)
    }
}
