/// Lists every account: favourites first, then the repository's (the user's) order.
public protocol ListAccountsUseCase: Sendable {
    func execute() async throws -> [Account]
}

/// The ListAccounts use case over an AccountRepository.
public struct DefaultListAccountsUseCase: ListAccountsUseCase {
    private let repository: any AccountRepository

    public init(repository: any AccountRepository) {
        self.repository = repository
    }

    public func execute() async throws -> [Account] {
        let accounts = try await repository.list()
        return accounts.filter(\.isFavorite) + accounts.filter { !$0.isFavorite }
    }
}
