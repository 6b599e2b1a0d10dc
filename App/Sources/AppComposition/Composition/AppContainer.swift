import Domain
import Foundation
import Presentation

/// A per-phase DI container: each phase supplies its ports; the `make…` factories that build
/// use cases and view models on top of them are shared (below).
public protocol AppContainer: Sendable {
    var phase: Phase { get }
    var accountRepository: any AccountRepository { get }
    var hmac: any HMACProvider { get }
    var clock: any WallClock { get }
    var random: any RandomSource { get }
    /// The vault file, for phases that have one.
    var vaultPath: String? { get }
    /// Re-wraps the vault's master key for a new passphrase; DEV has no vault.
    func changePassphrase(to passphrase: Passphrase) throws
    /// Releases what the phase opened (the vault), leaving its files complete.
    func close() throws
}

extension AppContainer {
    public func makeListAccountsUseCase() -> any ListAccountsUseCase {
        DefaultListAccountsUseCase(repository: accountRepository)
    }

    public func makeSearchAccountsUseCase() -> any SearchAccountsUseCase {
        DefaultSearchAccountsUseCase(listAccounts: makeListAccountsUseCase(), repository: accountRepository)
    }

    public func makeAddAccountUseCase() -> any AddAccountUseCase {
        DefaultAddAccountUseCase(repository: accountRepository, clock: clock, random: random)
    }

    public func makeUpdateAccountUseCase() -> any UpdateAccountUseCase {
        DefaultUpdateAccountUseCase(repository: accountRepository, clock: clock)
    }

    public func makeMoveAccountUseCase() -> any MoveAccountUseCase {
        DefaultMoveAccountUseCase(repository: accountRepository, listAccounts: makeListAccountsUseCase())
    }

    public func makeDeleteAccountUseCase() -> any DeleteAccountUseCase {
        DefaultDeleteAccountUseCase(repository: accountRepository)
    }

    public func makeGenerateCodesUseCase() -> any GenerateCodesUseCase {
        DefaultGenerateCodesUseCase(hmac: hmac)
    }

    public func makeAdvanceHOTPUseCase() -> any AdvanceHOTPUseCase {
        DefaultAdvanceHOTPUseCase(repository: accountRepository, hmac: hmac)
    }

    public func makeImportAccountsUseCase() -> any ImportAccountsUseCase {
        DefaultImportAccountsUseCase(
            decoder: AppComposer.makeInteropCodec(), repository: accountRepository, clock: clock, random: random)
    }

    public func makeExportAccountsUseCase() -> any ExportAccountsUseCase {
        DefaultExportAccountsUseCase(repository: accountRepository, encoder: AppComposer.makeInteropCodec())
    }

    @MainActor
    public func makeAccountListViewModel(scheduler: any Clock<Duration> = ContinuousClock()) -> AccountListViewModel {
        AccountListViewModel(
            searchAccounts: makeSearchAccountsUseCase(), generateCodes: makeGenerateCodesUseCase(),
            advanceHOTP: makeAdvanceHOTPUseCase(), wallClock: clock, scheduler: scheduler)
    }
}
