import AppConfiguration
import DataLayer
import Domain

/// The ALPHA and REAL phases: accounts in the phase's encrypted vault, real crypto, the system
/// clock. Made only once the vault is unlocked.
package final class VaultContainer: UnlockedVaultContainer {
    public let phase: Phase
    public let accountRepository: any AccountRepository
    public let hmac: any HMACProvider
    public let clock: any WallClock
    public let random: any RandomSource
    /// The vault's sync membership and state; every change through `accountRepository` is
    /// recorded in it, in the same transaction.
    public let syncStore: any SyncLocalStore & SyncMembershipStore
    private let vault: UnlockedVault

    init(phase: Phase, vault: UnlockedVault, clock: (any WallClock)?) {
        let clock = clock ?? SystemClock()
        self.phase = phase
        self.vault = vault
        self.accountRepository = DefaultAccountRepository(dataSource: VaultAccountDataSource(vault: vault, clock: clock))
        self.syncStore = VaultSyncStore(vault: vault, clock: clock)
        self.hmac = SwiftCryptoHMAC()
        self.clock = clock
        self.random = SecureRandomSource()
    }

    public var vaultPath: String { vault.path }

    public func changePassphrase(to passphrase: Passphrase) throws {
        try vault.changePassphrase(to: passphrase)
    }

    public func backUp(into folder: String) throws -> VaultBackupReport {
        try vault.backUp(to: folder + "/" + BackupComposer.fileName(at: clock.now()))
    }

    public func readBackup(at path: String) throws -> [Account] {
        try vault.readBackup(at: path)
    }

    public func isCurrent(backupAt path: String) -> Bool {
        vault.isCurrent(backupAt: path)
    }

    public func close() throws {
        try vault.close()
    }
}
