import Domain
import Synchronization

/// SearchAccounts for a screen that searches at each keystroke: the ordered accounts and their
/// folded text are kept in a `SearchIndex` until the repository's revision changes, the text
/// folded at the first query that needs it, and an account's text folded again only when that
/// account changed. A keystroke then costs one
/// revision check and one scan of the folded text.
public final class IndexedSearchAccountsUseCase: SearchAccountsUseCase {
    private let listAccounts: any ListAccountsUseCase
    private let revision: @Sendable () async throws -> AccountsRevision
    private let index = Mutex<SearchIndex?>(nil)

    /// Searches what `listAccounts` lists, folding it again when the repository's revision moves.
    public convenience init(listAccounts: any ListAccountsUseCase, repository: any AccountRepository) {
        self.init(listAccounts: listAccounts, revision: { try await repository.revision() })
    }

    /// Searches what `listAccounts` lists, folding it again when `revision` moves.
    public init(listAccounts: any ListAccountsUseCase, revision: @escaping @Sendable () async throws -> AccountsRevision) {
        self.listAccounts = listAccounts
        self.revision = revision
    }

    public func execute(query: String) async throws -> [Account] {
        let query = AccountQuery(query)
        // Read the revision first: a change made while listing leaves the index one revision
        // behind, so the next keystroke rebuilds it rather than trusting stale text.
        let revision = try await revision()
        let cached = index.withLock { $0 }
        var searched: SearchIndex
        if let cached, cached.revision == revision {
            searched = cached
        } else {
            searched = SearchIndex(revision: revision, accounts: try await listAccounts.execute(), previous: cached)
            index.withLock { $0 = searched }
        }
        guard !query.matchesEverything else { return searched.accounts }
        if !searched.isFolded {
            searched = searched.folded()
            index.withLock { if $0?.revision == searched.revision { $0 = searched } }
        }
        return searched.matches(query)
    }
}
