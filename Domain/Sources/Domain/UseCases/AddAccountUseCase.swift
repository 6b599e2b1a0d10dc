import Foundation

/// Adds an account from a Key URI or from form fields, validated by Domain's rules. An account
/// already kept (same secret, kind and parameters: see DuplicateKey) is not added twice unless
/// `allowDuplicate` says so: DuplicateAccountError names the one there.
public protocol AddAccountUseCase: Sendable {
    func execute(_ spec: AccountSpec, note: String, groups: [String], allowDuplicate: Bool) async throws -> Account
    /// Puts back an account exactly as it was (undo of a delete).
    func restore(_ account: Account) async throws
}

extension AddAccountUseCase {
    /// Adds the account unless it is already there.
    public func execute(_ spec: AccountSpec, note: String, groups: [String]) async throws -> Account {
        try await execute(spec, note: note, groups: groups, allowDuplicate: false)
    }

    /// Adds the account a Key URI describes.
    public func execute(uri: String) async throws -> Account {
        try await execute(KeyURI.parse(uri), note: "", groups: [])
    }

    /// Adds the account a form describes.
    public func execute(draft: AccountDraft) async throws -> Account {
        try await execute(draft.validated(), note: "", groups: [])
    }
}

/// The AddAccount use case: a new id from the RandomSource, timestamps from the Clock.
public struct DefaultAddAccountUseCase: AddAccountUseCase {
    private let repository: any AccountRepository
    private let clock: any WallClock
    private let random: any RandomSource

    public init(repository: any AccountRepository, clock: any WallClock, random: any RandomSource) {
        self.repository = repository
        self.clock = clock
        self.random = random
    }

    public func execute(_ spec: AccountSpec, note: String, groups: [String], allowDuplicate: Bool) async throws -> Account {
        try AccountText.validate(note: note, groups: groups)
        if !allowDuplicate {
            let key = DuplicateKey(spec)
            if let existing = try await repository.list().first(where: { DuplicateKey($0) == key }) {
                throw DuplicateAccountError(existing: existing)
            }
        }
        let account = Account(id: random.uuid(), spec: spec, note: note, groups: groups, createdAt: clock.now())
        try await repository.add(account)
        return account
    }

    public func restore(_ account: Account) async throws {
        try await repository.add(account)
    }
}
