/// Saves changes to an account after validating them; stamps the update time.
public protocol UpdateAccountUseCase: Sendable {
    func execute(_ account: Account) async throws -> Account
}

/// The UpdateAccount use case over an AccountRepository and the Clock.
public struct DefaultUpdateAccountUseCase: UpdateAccountUseCase {
    private let repository: any AccountRepository
    private let clock: any WallClock

    public init(repository: any AccountRepository, clock: any WallClock) {
        self.repository = repository
        self.clock = clock
    }

    public func execute(_ account: Account) async throws -> Account {
        let spec = try account.spec
        try AccountText.validate(note: account.note, groups: account.groups)
        var updated = account
        updated.issuer = spec.issuer
        updated.name = spec.name
        updated.algorithm = spec.algorithm
        updated.digits = spec.digits
        updated.updatedAt = clock.now()
        try await repository.update(updated)
        return updated
    }
}
