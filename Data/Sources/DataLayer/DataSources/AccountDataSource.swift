import Domain
import Foundation

/// Where account records live: in memory for DEV, an encrypted vault for ALPHA and REAL.
/// Each call is atomic; repositories build Domain's AccountRepository on top of it.
public protocol AccountDataSource: Sendable {
    func fetchAll() async throws -> [Account]
    /// The account with this id; throws RepositoryError.notFound.
    func fetch(id: UUID) async throws -> Account
    /// Changes whenever what `fetchAll()` returns changes.
    func revision() async throws -> AccountsRevision
    func insert(_ account: Account) async throws
    /// Inserts all the accounts atomically: all, or none.
    func insertAll(_ accounts: [Account]) async throws
    /// Replaces the stored account with the same id; throws RepositoryError.notFound.
    func replace(_ account: Account) async throws
    /// Removes the account; throws RepositoryError.notFound.
    func remove(id: UUID) async throws
    /// Stores the user's order: `ids` first, in that order, the rest after them.
    func reorder(_ ids: [UUID]) async throws
    /// Changes one account in a single step and returns it as it was before the change.
    func modify(id: UUID, _ change: @Sendable (inout Account) throws -> Void) async throws -> Account
}
