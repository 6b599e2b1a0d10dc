import Domain
import Foundation

/// Where account records live: in memory for DEV, an encrypted vault for ALPHA and REAL.
/// Each call is atomic. A data source answers in storage's terms (an absent account is `nil` or
/// `false`, a taken id is `AccountIDTaken`); `DefaultAccountRepository` turns those answers into
/// the errors Domain's AccountRepository promises, in one place for every store.
public protocol AccountDataSource: Sendable {
    func fetchAll() async throws -> [Account]
    /// The accounts `query` matches, in `fetchAll()`'s order.
    func search(_ query: AccountQuery) async throws -> [Account]
    /// The accounts whose id starts with `prefix`, in `fetchAll()`'s order.
    func accounts(idPrefix prefix: AccountIDPrefix) async throws -> [Account]
    /// The account with this id, or nil when there is none.
    func fetch(id: UUID) async throws -> Account?
    /// Changes whenever what `fetchAll()` returns changes.
    func revision() async throws -> AccountsRevision
    /// Adds the account; throws `AccountIDTaken` when its id is stored already.
    func insert(_ account: Account) async throws
    /// Inserts all the accounts atomically: all, or none (`AccountIDTaken` for a stored or repeated id).
    func insertAll(_ accounts: [Account]) async throws
    /// Replaces the stored account with the same id; false when there is none (nothing changed).
    @discardableResult func replace(_ account: Account) async throws -> Bool
    /// Removes the account; false when there is none.
    @discardableResult func remove(id: UUID) async throws -> Bool
    /// Stores the user's order: `ids` first, in that order, the rest after them.
    func reorder(_ ids: [UUID]) async throws
    /// Changes one account in a single step and returns it as it was before the change; nil
    /// when there is no such account (`change` is not called).
    func modify(id: UUID, _ change: @Sendable (inout Account) throws -> Void) async throws -> Account?
}

extension AccountDataSource {
    public func search(_ query: AccountQuery) async throws -> [Account] {
        try await fetchAll().filter(query.matches)
    }

    public func accounts(idPrefix prefix: AccountIDPrefix) async throws -> [Account] {
        try await fetchAll().filter { prefix.matches($0.id) }
    }
}
