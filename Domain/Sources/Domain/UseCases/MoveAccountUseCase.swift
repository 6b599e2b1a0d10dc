import Foundation

/// Moves an account one place up or down the list the user sees, changing the user's order.
public protocol MoveAccountUseCase: Sendable {
    /// `offset` is -1 (up) or +1 (down); moving past either end does nothing.
    func execute(id: UUID, offset: Int) async throws
}

/// The MoveAccount use case: swaps the account with its neighbour in the listed order.
public struct DefaultMoveAccountUseCase: MoveAccountUseCase {
    private let repository: any AccountRepository
    private let listAccounts: any ListAccountsUseCase

    public init(repository: any AccountRepository, listAccounts: any ListAccountsUseCase) {
        self.repository = repository
        self.listAccounts = listAccounts
    }

    public func execute(id: UUID, offset: Int) async throws {
        let shown = try await listAccounts.execute().map(\.id)
        guard let index = shown.firstIndex(of: id), shown.indices.contains(index + offset) else { return }
        let neighbour = shown[index + offset]
        var order = try await repository.list().map(\.id)
        guard let mine = order.firstIndex(of: id), let theirs = order.firstIndex(of: neighbour) else { return }
        order.swapAt(mine, theirs)
        try await repository.reorder(order)
    }
}
