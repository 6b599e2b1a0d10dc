import Foundation

/// The code of one stored account now, as `tokens code` prints it and the list copies it.
public protocol CurrentCodeUseCase: Sendable {
    /// A time-based account's code for the time step of `date` (and the next one), with no
    /// store read; a counter-based account's code for its next counter, which is used up: the
    /// stored counter moves on first, atomically, so no code is ever given twice.
    func execute(for account: Account, at date: Date) async throws -> GeneratedCode
}

/// The CurrentCode use case over the repository (its atomic counter step) and the OTP engine.
public struct DefaultCurrentCodeUseCase: CurrentCodeUseCase {
    private let repository: any AccountRepository
    private let generator: OTPGenerator

    public init(repository: any AccountRepository, hmac: any HMACProvider) {
        self.repository = repository
        self.generator = OTPGenerator(hmac: hmac)
    }

    public func execute(for account: Account, at date: Date) async throws -> GeneratedCode {
        guard account.counter != nil else { return generator.codes(for: account, at: date) }
        // The stored account as it was before the step: its counter is the one this code uses.
        let advanced = try await repository.advanceCounter(id: account.id)
        guard let counter = advanced.counter else { throw RepositoryError.notCounterBased(account.id) }
        return GeneratedCode(
            accountID: account.id, code: generator.code(for: advanced, counter: counter), secondsRemaining: nil,
            period: nil, nextCode: nil, counter: counter)
    }
}
