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
        Self.ordered(try await repository.list())
    }

    /// `accounts` (in the repository's order) in the list's order; any part of them comes out
    /// in the order it has in the whole list.
    public static func ordered(_ accounts: [Account]) -> [Account] {
        // Closures rather than key paths: a key path is looked up at run time, at every command.
        let groups = Set(accounts.compactMap { $0.groups.first }).sorted()
        let rest = accounts.filter { !$0.isFavorite }
        var ordered = accounts.filter { $0.isFavorite }
        for group in groups { ordered += rest.filter { $0.groups.first == group } }
        ordered += rest.filter { $0.groups.isEmpty }
        return ordered
    }
}
