import AppConfiguration
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
    /// What only a phase with an unlocked vault can do (ALPHA and REAL on the command line);
    /// nil for DEV, and for the screen's container, which unlocks later.
    var unlockedVault: UnlockedVaultCapability? { get }
    /// The vault's sync (ALPHA, REAL, and DEV's screen); nil when the phase keeps nothing to sync.
    var syncing: SyncingCapability? { get }
    /// Releases what the phase opened (the vault), leaving its files complete.
    func close() throws
}

extension AppContainer {
    public var unlockedVault: UnlockedVaultCapability? { nil }
    public var syncing: SyncingCapability? { nil }
}

/// A container's unlocked vault, as a typed member instead of a cast: only App's own targets
/// can reach what it holds.
public struct UnlockedVaultCapability: Sendable {
    package let container: any UnlockedVaultContainer
}

/// A container's sync, as a typed member instead of a cast.
public struct SyncingCapability: Sendable {
    package let container: any SyncingContainer
}

/// A phase whose accounts are in a vault it has unlocked (ALPHA and REAL on the command line):
/// what only such a phase can do. DEV has no vault, and the screen's container unlocks later.
package protocol UnlockedVaultContainer: SyncingContainer {
    /// The vault file.
    var vaultPath: String { get }
    /// Re-wraps the vault's master key for a new passphrase.
    func changePassphrase(to passphrase: Passphrase) throws
    /// Writes a checked copy of the vault into `folder`, named by the time.
    func backUp(into folder: String) throws -> VaultBackupReport
    /// The accounts of the backup at `path`, checked, opened with the vault's key
    /// (`backupOtherKey` for a backup written under another).
    func readBackup(at path: String) throws -> [Account]
    /// Whether the backup at `path` holds the vault as it is now (written after its last
    /// change, under its key); headers alone are read.
    func isCurrent(backupAt path: String) -> Bool
}

extension UnlockedVaultContainer {
    public var unlockedVault: UnlockedVaultCapability? { UnlockedVaultCapability(container: self) }
}

/// A phase whose vault can sync (ALPHA and REAL): its membership and sync state, recorded in
/// the vault's own transactions.
package protocol SyncingContainer: AppContainer {
    var syncStore: any SyncLocalStore & SyncMembershipStore { get }
    /// A sync that needs no network (DEV's in-process server); nil: sync with the membership's server.
    var localSync: (any SyncUseCase)? { get }
}

extension SyncingContainer {
    public var localSync: (any SyncUseCase)? { nil }
    public var syncing: SyncingCapability? { SyncingCapability(container: self) }

    /// The accounts' history: the server's earlier versions with the records this vault holds.
    package func makeAccountHistoryUseCase() -> AccountHistoryUseCase { AccountHistoryUseCase(local: syncStore) }

    /// An earlier version brought back as a change of this vault (recorded for sync like any).
    package func makeRestoreAccountVersionUseCase() -> RestoreAccountVersionUseCase {
        RestoreAccountVersionUseCase(repository: accountRepository, clock: clock)
    }
}

extension AppContainer {
    public func makeListAccountsUseCase() -> any ListAccountsUseCase {
        DefaultListAccountsUseCase(repository: accountRepository)
    }

    /// Search for one question (the command line's QUERY).
    public func makeSearchAccountsUseCase() -> any SearchAccountsUseCase {
        DefaultSearchAccountsUseCase(repository: accountRepository)
    }

    /// The one account the command line's QUERY means: text first, then an id prefix (looked up
    /// in the store, not by listing every account).
    public func makeSelectAccountUseCase() -> any SelectAccountUseCase {
        DefaultSelectAccountUseCase(
            search: makeSearchAccountsUseCase(), listAccounts: makeListAccountsUseCase(), repository: accountRepository)
    }

    /// Search for a screen that searches at each keystroke: the folded text is kept per revision.
    public func makeIndexedSearchAccountsUseCase() -> any SearchAccountsUseCase {
        IndexedSearchAccountsUseCase(listAccounts: makeListAccountsUseCase(), repository: accountRepository)
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

    /// Codes for a list redrawn every second: a time step's codes are kept until it ends.
    public func makeListCodesUseCase() -> any GenerateCodesUseCase {
        TimeStepCodeCache(generating: makeGenerateCodesUseCase())
    }

    public func makeCurrentCodeUseCase() -> any CurrentCodeUseCase {
        DefaultCurrentCodeUseCase(repository: accountRepository, hmac: hmac)
    }

    public func makeImportAccountsUseCase() -> any ImportAccountsUseCase {
        DefaultImportAccountsUseCase(
            decoder: AppComposer.makeInteropCodec(), repository: accountRepository, clock: clock, random: random)
    }

    public func makeRestoreBackupUseCase() -> any RestoreBackupUseCase {
        DefaultRestoreBackupUseCase(repository: accountRepository)
    }

    public func makeExportAccountsUseCase() -> any ExportAccountsUseCase {
        DefaultExportAccountsUseCase(repository: accountRepository, encoder: AppComposer.makeInteropCodec(), random: random)
    }
}
