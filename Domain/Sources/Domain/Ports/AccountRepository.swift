import Foundation

/// Port: where accounts are kept. Data implements it (in memory for DEV, the encrypted vault otherwise);
/// use cases see only this protocol.
public protocol AccountRepository: Sendable {
    /// All accounts, in the user's order.
    func list() async throws -> [Account]
    /// The accounts `query` matches, in the user's order (`list()` filtered, unless the store
    /// can find them without reading every account).
    func search(_ query: AccountQuery) async throws -> [Account]
    /// The accounts whose id starts with `prefix`, in the user's order (`list()` filtered,
    /// unless the store can find them without reading every account).
    func accounts(idPrefix prefix: AccountIDPrefix) async throws -> [Account]
    /// The accounts' current revision: equal values mean `list()` would return the same.
    func revision() async throws -> AccountsRevision
    func get(id: UUID) async throws -> Account
    func add(_ account: Account) async throws
    /// Adds all the accounts in one transaction: all of them, or none when any fails.
    func add(contentsOf accounts: [Account]) async throws
    func update(_ account: Account) async throws
    func delete(id: UUID) async throws
    /// Puts the accounts in this order (the user's order); ids not given keep their place after them.
    func reorder(_ ids: [UUID]) async throws
    /// Atomically takes the HOTP counter to use for the next code and stores it plus one.
    /// Returns the account as it was before the increment.
    func advanceCounter(id: UUID) async throws -> Account
}

extension AccountRepository {
    public func search(_ query: AccountQuery) async throws -> [Account] {
        try await list().filter(query.matches)
    }

    public func accounts(idPrefix prefix: AccountIDPrefix) async throws -> [Account] {
        try await list().filter { prefix.matches($0.id) }
    }
}

/// Errors every AccountRepository reports the same way.
public enum RepositoryError: Error, Hashable, Sendable, CustomStringConvertible {
    case notFound(UUID)
    case duplicateID(UUID)
    case notCounterBased(UUID)

    public var description: String {
        switch self {
        case .notFound: "no such account"
        case .duplicateID: "an account with this id already exists"
        case .notCounterBased: "this account is not counter-based (HOTP)"
        }
    }
}
