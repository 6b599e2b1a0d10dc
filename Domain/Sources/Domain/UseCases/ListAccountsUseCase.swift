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
        // Positions, not copies, until the one list is made (ten thousand accounts are megabytes);
        // the list as it came when nothing reorders it. Closures rather than key paths: a key
        // path is looked up at run time, at every command.
        var favorites: [Int] = []
        var grouped: [String: [Int]] = [:]
        var ungrouped: [Int] = []
        for (position, account) in accounts.enumerated() {
            if account.isFavorite {
                favorites.append(position)
            } else if let group = account.groups.first {
                grouped[group, default: []].append(position)
            } else {
                ungrouped.append(position)
            }
        }
        guard ungrouped.count < accounts.count else { return accounts }
        var ordered: [Account] = []
        ordered.reserveCapacity(accounts.count)
        for position in favorites { ordered.append(accounts[position]) }
        for group in grouped.keys.sorted() {
            for position in grouped[group] ?? [] { ordered.append(accounts[position]) }
        }
        for position in ungrouped { ordered.append(accounts[position]) }
        return ordered
    }
}
