import Foundation

/// Makes the next code of a counter-based (HOTP) account and moves its stored counter on.
public protocol AdvanceHOTPUseCase: Sendable {
    func execute(id: UUID) async throws -> GeneratedCode
}

/// The AdvanceHOTP use case over the repository's atomic counter step.
public struct DefaultAdvanceHOTPUseCase: AdvanceHOTPUseCase {
    private let repository: any AccountRepository
    private let generator: OTPGenerator

    public init(repository: any AccountRepository, hmac: any HMACProvider) {
        self.repository = repository
        self.generator = OTPGenerator(hmac: hmac)
    }

    public func execute(id: UUID) async throws -> GeneratedCode {
        let account = try await repository.advanceCounter(id: id)
        guard let counter = account.counter else { throw RepositoryError.notCounterBased(id) }
        return GeneratedCode(
            accountID: id, code: generator.code(for: account, counter: counter), secondsRemaining: nil,
            period: nil, nextCode: nil, counter: counter)
    }
}
