import Domain
import Foundation

/// Domain's AccountRepository over any AccountDataSource: Domain never learns where accounts live.
public struct DefaultAccountRepository: AccountRepository {
    private let dataSource: any AccountDataSource

    public init(dataSource: any AccountDataSource) {
        self.dataSource = dataSource
    }

    public func list() async throws -> [Account] {
        try await dataSource.fetchAll()
    }

    public func revision() async throws -> AccountsRevision {
        try await dataSource.revision()
    }

    public func get(id: UUID) async throws -> Account {
        try await dataSource.fetch(id: id)
    }

    public func add(_ account: Account) async throws {
        try await dataSource.insert(account)
    }

    public func add(contentsOf accounts: [Account]) async throws {
        try await dataSource.insertAll(accounts)
    }

    public func update(_ account: Account) async throws {
        try await dataSource.replace(account)
    }

    public func delete(id: UUID) async throws {
        try await dataSource.remove(id: id)
    }

    public func reorder(_ ids: [UUID]) async throws {
        try await dataSource.reorder(ids)
    }

    public func advanceCounter(id: UUID) async throws -> Account {
        try await dataSource.modify(id: id) { account in
            guard let next = try account.kind.advancingCounter() else { throw RepositoryError.notCounterBased(id) }
            account.kind = next
        }
    }
}
