import Domain
import Foundation

/// Domain's AccountRepository over any AccountDataSource: Domain never learns where accounts
/// live. Its job is the port's contract, the same for every store: it maps a data source's
/// storage answers (nil, false, `AccountIDTaken`) to `RepositoryError`, and keeps the rule of
/// which accounts have a counter to advance.
public struct DefaultAccountRepository: AccountRepository {
    private let dataSource: any AccountDataSource

    public init(dataSource: any AccountDataSource) {
        self.dataSource = dataSource
    }

    public func list() async throws -> [Account] {
        try await dataSource.fetchAll()
    }

    public func search(_ query: AccountQuery) async throws -> [Account] {
        try await dataSource.search(query)
    }

    public func accounts(idPrefix prefix: AccountIDPrefix) async throws -> [Account] {
        try await dataSource.accounts(idPrefix: prefix)
    }

    public func revision() async throws -> AccountsRevision {
        try await dataSource.revision()
    }

    public func get(id: UUID) async throws -> Account {
        guard let account = try await dataSource.fetch(id: id) else { throw RepositoryError.notFound(id) }
        return account
    }

    public func add(_ account: Account) async throws {
        try await mappingTakenID { try await dataSource.insert(account) }
    }

    public func add(contentsOf accounts: [Account]) async throws {
        try await mappingTakenID { try await dataSource.insertAll(accounts) }
    }

    public func update(_ account: Account) async throws {
        guard try await dataSource.replace(account) else { throw RepositoryError.notFound(account.id) }
    }

    public func delete(id: UUID) async throws {
        guard try await dataSource.remove(id: id) else { throw RepositoryError.notFound(id) }
    }

    public func reorder(_ ids: [UUID]) async throws {
        try await dataSource.reorder(ids)
    }

    public func advanceCounter(id: UUID) async throws -> Account {
        let before = try await dataSource.modify(id: id) { account in
            guard let next = try account.kind.advancingCounter() else { throw RepositoryError.notCounterBased(id) }
            account.kind = next
        }
        guard let before else { throw RepositoryError.notFound(id) }
        return before
    }

    private func mappingTakenID(_ insert: () async throws -> Void) async throws {
        do {
            try await insert()
        } catch let taken as AccountIDTaken {
            throw RepositoryError.duplicateID(taken.id)
        }
    }
}
