import Foundation

/// Finds the accounts whose issuer, account name or note match a query (case- and accent-blind).
public protocol SearchAccountsUseCase: Sendable {
    func execute(query: String) async throws -> [Account]
}

/// The SearchAccounts use case: the ListAccounts order, filtered by an AccountQuery.
///
/// A keystroke costs one revision check and one scan of the folded text: the ordered accounts
/// and their folded text are kept in a `SearchIndex` until the repository's revision changes,
/// and an account's text is folded again only when that account changed.
public struct DefaultSearchAccountsUseCase: SearchAccountsUseCase {
    private let listAccounts: any ListAccountsUseCase
    private let repository: any AccountRepository
    private let index = SearchIndex()

    public init(listAccounts: any ListAccountsUseCase, repository: any AccountRepository) {
        self.listAccounts = listAccounts
        self.repository = repository
    }

    public func execute(query: String) async throws -> [Account] {
        let query = AccountQuery(query)
        // Read the revision first: a change made while listing leaves the index one revision
        // behind, so the next keystroke rebuilds it rather than trusting stale text.
        let revision = try await repository.revision()
        let snapshot: SearchIndex.Snapshot
        if let current = index.snapshot(at: revision) {
            snapshot = current
        } else {
            snapshot = SearchIndex.Snapshot(
                revision: revision, accounts: try await listAccounts.execute(), previous: index.latest)
            index.store(snapshot)
        }
        guard !query.matchesEverything else { return snapshot.accounts }
        return snapshot.matches(query)
    }
}
