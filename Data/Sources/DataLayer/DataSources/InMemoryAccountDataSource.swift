import Domain
import Foundation

/// The DEV data source: accounts in memory only, never written to disk. An actor, so any number
/// of concurrent callers see each change whole.
public actor InMemoryAccountDataSource: AccountDataSource {
    private var accounts: [Account] { didSet { changes &+= 1 } }
    private var changes: UInt64 = 0

    public init(accounts: [Account] = []) {
        self.accounts = accounts
    }

    public func fetchAll() -> [Account] { accounts }

    public func fetch(id: UUID) -> Account? { index(of: id).map { accounts[$0] } }

    public func revision() -> AccountsRevision { AccountsRevision(changes) }

    public func insert(_ account: Account) throws {
        guard index(of: account.id) == nil else { throw AccountIDTaken(account.id) }
        accounts.append(account)
    }

    public func insertAll(_ newAccounts: [Account]) throws {
        var ids = Set(accounts.map(\.id))
        for account in newAccounts where !ids.insert(account.id).inserted {
            throw AccountIDTaken(account.id)
        }
        accounts += newAccounts
    }

    public func replace(_ account: Account) -> Bool {
        guard let index = index(of: account.id) else { return false }
        accounts[index] = account
        return true
    }

    public func remove(id: UUID) -> Bool {
        guard let index = index(of: id) else { return false }
        accounts.remove(at: index)
        return true
    }

    public func reorder(_ ids: [UUID]) {
        accounts = AccountOrder.reordered(accounts, by: ids, key: \.id)
    }

    public func modify(id: UUID, _ change: @Sendable (inout Account) throws -> Void) throws -> Account? {
        guard let index = index(of: id) else { return nil }
        let before = accounts[index]
        var changed = before
        try change(&changed)
        accounts[index] = changed
        return before
    }

    private func index(of id: UUID) -> Int? {
        accounts.firstIndex { $0.id == id }
    }
}
