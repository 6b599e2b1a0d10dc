import AppConfiguration
import DataLayer
import Domain
import Foundation

/// ALPHA and REAL for the interactive screen: the vault starts locked, and the Unlock screen
/// opens it through the AccountStoreLock port (unless `tokens unlock` kept its key); idle
/// locking closes it again, and drops the kept key unless `unlock.idle` is `keep`.
package final class LockedVaultContainer: SyncingContainer {
    public let phase: Phase
    public let accountRepository: any AccountRepository
    public let hmac: any HMACProvider
    public let clock: any WallClock
    public let random: any RandomSource
    /// The lock the Unlock screen and idle lock use.
    public let lock: any AccountStoreLock
    private let store: LockableVaultDataSource
    /// The vault's sync state, reachable while it is unlocked.
    public var syncStore: any SyncLocalStore & SyncMembershipStore { store }

    /// `settings`: where and when the automatic backup writes, as the vault closes (locked or
    /// quitting) after its accounts changed.
    init(phase: Phase, path: String, kept: KeptUnlock?, forgetsKeptKeyOnLock: Bool, settings: AppSettings) {
        ProcessHardening.forbidDumpsAndTracing()
        self.phase = phase
        let clock = SystemClock()
        self.store = LockableVaultDataSource(
            path: path, clock: clock, keptKeys: kept?.keys, forgetsKeptKeyOnLock: forgetsKeptKeyOnLock,
            whenChanged: { vault in
                let now = clock.now()
                _ = try BackupComposer.afterChange(settings: settings, now: now) { folder in
                    try vault.backUp(to: folder + "/" + BackupComposer.fileName(at: now))
                }
            })
        self.lock = store
        self.accountRepository = DefaultAccountRepository(dataSource: store)
        self.hmac = SwiftCryptoHMAC()
        self.clock = clock
        self.random = SecureRandomSource()
    }

    public func close() throws {}

    /// Opens the vault with the key `tokens unlock` kept, if any: true when the Unlock screen is
    /// not needed. Where the keyring cannot be used, `notice` hears one line.
    public func unlockWithKeptKey(notice: (String) -> Void) async -> Bool {
        do {
            return try await store.unlockWithKeptKey()
        } catch {
            notice("notice: \(error); asking for the passphrase")
            return false
        }
    }

    /// Closes the vault as the screen quits, leaving a kept key kept; returns the failures of
    /// the automatic backups made as it closed or locked, a line each.
    public func end() async -> [String] {
        await store.close()
        return await store.takeNotices()
    }
}

extension AppComposer {
    /// The container for the interactive screen, and the lock its Unlock screen opens: a vault
    /// phase starts locked (no passphrase is asked here), DEV is always open (and syncs with a
    /// server in the same process).
    package static func makeInteractiveContainer(for settings: AppSettings) async throws -> InteractiveGraph {
        guard settings.phase.value.usesVault, let path = settings.vaultPath?.value else {
            return InteractiveGraph(container: try await DevScreenContainer.make(), lock: AlwaysUnlocked(), lockedVault: nil)
        }
        guard FileManager.default.fileExists(atPath: path) else { throw CompositionError.noVault(path: path, phase: settings.phase.value) }
        let container = LockedVaultContainer(
            phase: settings.phase.value, path: path, kept: KeptUnlock.enabled(for: settings),
            forgetsKeptKeyOnLock: settings.idleLockForgetsKeptKey.value, settings: settings)
        return InteractiveGraph(container: container, lock: container.lock, lockedVault: container)
    }
}

/// The interactive screen's graph: its container, the lock the Unlock screen works, and the
/// vault still to unlock (nil for DEV, whose accounts are never locked).
package struct InteractiveGraph {
    package let container: any AppContainer
    package let lock: any AccountStoreLock
    package let lockedVault: LockedVaultContainer?
}
