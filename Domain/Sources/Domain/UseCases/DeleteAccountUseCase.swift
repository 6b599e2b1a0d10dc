import Foundation

/// Removes an account for good.
public protocol DeleteAccountUseCase: Sendable {
    func execute(id: UUID) async throws
}

/// The DeleteAccount use case over an AccountRepository.
public struct DefaultDeleteAccountUseCase: DeleteAccountUseCase {
    private let repository: any AccountRepository

    public init(repository: any AccountRepository) {
        self.repository = repository
    }

    public func execute(id: UUID) async throws {
        try await repository.delete(id: id)
    }
}
