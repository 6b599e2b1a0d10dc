/// Finds the accounts whose issuer, account name or note match a query (case- and accent-blind).
public protocol SearchAccountsUseCase: Sendable {
    func execute(query: String) async throws -> [Account]
}

/// The SearchAccounts use case: the ListAccounts order, filtered by an AccountQuery.
public struct DefaultSearchAccountsUseCase: SearchAccountsUseCase {
    private let listAccounts: any ListAccountsUseCase

    public init(listAccounts: any ListAccountsUseCase) {
        self.listAccounts = listAccounts
    }

    public func execute(query: String) async throws -> [Account] {
        let query = AccountQuery(query)
        return try await listAccounts.execute().filter(query.matches)
    }
}
