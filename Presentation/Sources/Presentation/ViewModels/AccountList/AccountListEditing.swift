import Domain
import Foundation

/// The list's row actions that change accounts: favourite, move, and delete with undo while the
/// screen is open. Each answers with the notice to show; the list reloads after.
@MainActor
final class AccountListEditing {
    /// The use cases for changing accounts from the list.
    struct UseCases {
        let update: any UpdateAccountUseCase
        let delete: any DeleteAccountUseCase
        let add: any AddAccountUseCase
        let move: any MoveAccountUseCase
    }

    private let useCases: UseCases
    /// Deleted accounts, latest last, for undo.
    private var deleted: [Account] = []

    init(_ useCases: UseCases) {
        self.useCases = useCases
    }

    func toggleFavorite(_ account: Account) async throws {
        var account = account
        account.isFavorite.toggle()
        _ = try await useCases.update.execute(account)
    }

    func move(_ id: UUID, by offset: Int) async throws {
        try await useCases.move.execute(id: id, offset: offset)
    }

    func delete(_ account: Account) async throws -> String {
        try await useCases.delete.execute(id: account.id)
        deleted.append(account)
        return "Deleted \(account.displayName) (u to undo)"
    }

    /// Puts the last deleted account back; nil when there is nothing to undo.
    func undoDelete() async throws -> String? {
        guard let account = deleted.last else { return nil }
        try await useCases.add.restore(account)
        deleted.removeLast()
        return "Restored \(account.displayName)"
    }
}
