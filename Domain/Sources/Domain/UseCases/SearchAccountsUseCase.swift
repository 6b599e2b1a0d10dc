import Foundation

/// Finds the accounts whose issuer, account name or note match a query (case- and accent-blind).
public protocol SearchAccountsUseCase: Sendable {
    func execute(query: String) async throws -> [Account]
}

/// The SearchAccounts use case: the ListAccounts order, filtered by an AccountQuery. Each call
/// folds every account's text again; a screen that searches at each keystroke keeps the folded
/// text between calls (Presentation's `IndexedSearchAccountsUseCase`).
public struct DefaultSearchAccountsUseCase: SearchAccountsUseCase {
    private let listAccounts: any ListAccountsUseCase

    public init(listAccounts: any ListAccountsUseCase) {
        self.listAccounts = listAccounts
    }

    public func execute(query: String) async throws -> [Account] {
        let query = AccountQuery(query)
        let accounts = try await listAccounts.execute()
        guard !query.matchesEverything else { return accounts }
        return accounts.filter(query.matches)
    }
}
