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
    private let vault: UnlockedVault

    init(phase: Phase, vault: UnlockedVault, clock: (any WallClock)?) {
        self.phase = phase
        self.vault = vault
        self.accountRepository = DefaultAccountRepository(dataSource: VaultAccountDataSource(vault: vault))
        self.hmac = SwiftCryptoHMAC()
        self.clock = clock ?? SystemClock()
        self.random = SecureRandomSource()
    }

    public var vaultPath: String { vault.path }

    public func changePassphrase(to passphrase: Passphrase) throws {
        try vault.changePassphrase(to: passphrase)
    }

    public func close() throws {
        try vault.close()
    }
}
