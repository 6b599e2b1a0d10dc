import Foundation

/// Finds the accounts whose issuer, account name or note match a query (case- and accent-blind).
public protocol SearchAccountsUseCase: Sendable {
    func execute(query: String) async throws -> [Account]
}

/// The SearchAccounts use case: the ListAccounts order, filtered by an AccountQuery. Each
/// account's folded text is kept between keystrokes, and folded again only when it changes.
public struct DefaultSearchAccountsUseCase: SearchAccountsUseCase {
    private let listAccounts: any ListAccountsUseCase
    private let cache = FoldedTextCache()

    public init(listAccounts: any ListAccountsUseCase) {
        self.listAccounts = listAccounts
    }

    public func execute(query: String) async throws -> [Account] {
        let query = AccountQuery(query)
        let accounts = try await listAccounts.execute()
        guard !query.matchesEverything else { return accounts }
        return accounts.filter { query.matches(haystack: cache.haystack(for: $0)) }
    }
}

/// Folded search text by account, reused while the account's text stays the same.
final class FoldedTextCache: @unchecked Sendable {
    private struct Entry {
        let issuer: String
        let name: String
        let note: String
        let haystack: [UInt8]
    }

    // Guarded by `lock`.
    private var entries: [UUID: Entry] = [:]
    private let lock = NSLock()

    func haystack(for account: Account) -> [UInt8] {
        if let entry = lock.withLock({ entries[account.id] }), entry.issuer == account.issuer, entry.name == account.name,
            entry.note == account.note
        {
            return entry.haystack
        }
        let haystack = AccountQuery.haystack(for: account)
        lock.withLock {
            entries[account.id] = Entry(issuer: account.issuer, name: account.name, note: account.note, haystack: haystack)
        }
        return haystack
    }
}
