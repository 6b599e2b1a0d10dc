import Domain
import Foundation

/// A fake AccountRepository that behaves like the real ones, with hooks for tests:
/// `send(_:)` replaces the stored accounts, `failNext(with:)` makes the next call throw.
public actor TestAccountRepository: AccountRepository {
    private var accounts: [Account] { didSet { changes &+= 1 } }
    private var changes: UInt64 = 0
    private var nextError: (any Error)?
    /// How many times `list()` ran, to check caching and debouncing.
    public private(set) var listCalls = 0

    public init(_ accounts: [Account] = []) {
        self.accounts = accounts
    }

    public func send(_ accounts: [Account]) { self.accounts = accounts }

    public func failNext(with error: any Error) { nextError = error }

    public func list() async throws -> [Account] {
        try throwIfPlanned()
        listCalls += 1
        return accounts
    }

    public func revision() async throws -> AccountsRevision {
        try throwIfPlanned()
        return AccountsRevision(changes)
    }

    public func get(id: UUID) async throws -> Account {
        try throwIfPlanned()
        guard let account = accounts.first(where: { $0.id == id }) else { throw RepositoryError.notFound(id) }
        return account
    }

    public func add(_ account: Account) async throws {
        try throwIfPlanned()
        guard !accounts.contains(where: { $0.id == account.id }) else { throw RepositoryError.duplicateID(account.id) }
        accounts.append(account)
    }

    public func add(contentsOf newAccounts: [Account]) async throws {
        try throwIfPlanned()
        var ids = Set(accounts.map(\.id))
        for account in newAccounts where !ids.insert(account.id).inserted {
            throw RepositoryError.duplicateID(account.id)
        }
        accounts += newAccounts
    }

    public func update(_ account: Account) async throws {
        try throwIfPlanned()
        guard let index = accounts.firstIndex(where: { $0.id == account.id }) else {
            throw RepositoryError.notFound(account.id)
        }
        accounts[index] = account
    }

    public func delete(id: UUID) async throws {
        try throwIfPlanned()
        guard let index = accounts.firstIndex(where: { $0.id == id }) else { throw RepositoryError.notFound(id) }
        accounts.remove(at: index)
    }

    public func reorder(_ ids: [UUID]) async throws {
        try throwIfPlanned()
        accounts = AccountOrder.reordered(accounts, by: ids, key: \.id)
    }

    public func advanceCounter(id: UUID) async throws -> Account {
        try throwIfPlanned()
        guard let index = accounts.firstIndex(where: { $0.id == id }) else { throw RepositoryError.notFound(id) }
        let account = accounts[index]
        guard let next = try account.kind.advancingCounter() else { throw RepositoryError.notCounterBased(id) }
        accounts[index].kind = next
        return account
    }

    private func throwIfPlanned() throws {
        if let error = nextError {
            nextError = nil
            throw error
        }
    }
}
