// Fixture: a command that builds its own use case and casts its container (rule 17).
import AppComposition
import Domain

struct Passwd {
    func run(_ container: any AppContainer) async throws {
        let accounts = try await DefaultListAccountsUseCase(repository: container.accountRepository).execute()
        guard let vault = container as? any UnlockedVaultContainer else { return }
        // A comment naming DefaultListAccountsUseCase( is fine.
        _ = (accounts, vault)
    }
}
