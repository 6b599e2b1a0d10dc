/// Lists every account: favourites first, then by group (accounts without one last), each part
/// in the repository's (the user's) order.
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
        let groups = Set(accounts.compactMap(\.groups.first)).sorted()
        let rest = accounts.filter { !$0.isFavorite }
        return accounts.filter(\.isFavorite)
            + groups.flatMap { group in rest.filter { $0.groups.first == group } }
            + rest.filter(\.groups.isEmpty)
    }
}
