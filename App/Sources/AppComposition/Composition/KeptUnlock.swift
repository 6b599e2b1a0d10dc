import AppConfiguration
import DataLayer
import Domain
import Foundation

/// `tokens unlock`, `tokens lock` and `tokens unlock --status` for the phase's vault: its key
/// kept in the kernel keyring for a while (never the passphrase), named by the vault's id.
package struct KeptUnlock: Sendable {
    /// The longest `--for` or `unlock.timeout`: a day.
    public static let maximumSeconds = VaultKeyCache.maximumSeconds

    let keys: VaultKeyCache
    /// The phase's vault file.
    public let vaultPath: String

    /// Whether commands use kept keys at all: `unlock.timeout` above 0.
    public let isEnabled: Bool

    /// Nil for DEV (no vault). `keyring` and `clock` are the kernel's and the system's but in tests.
    public init?(settings: AppSettings, keyring: (any VaultKeyring)? = nil, clock: (any WallClock)? = nil) {
        guard settings.phase.value.usesVault, let path = settings.vaultPath?.value else { return nil }
        self.keys = VaultKeyCache(keyring: keyring ?? KernelKeyring(), clock: clock ?? SystemClock())
        self.vaultPath = path
        self.isEnabled = settings.unlockSeconds.value > 0
    }

    /// The kept keys commands open the vault with: nil for DEV and when `unlock.timeout` is 0
    /// (then even a key kept before is not used, and every command asks).
    public static func enabled(for settings: AppSettings) -> KeptUnlock? {
        KeptUnlock(settings: settings).flatMap { $0.isEnabled ? $0 : nil }
    }

    /// Opens the vault with `passphrase` (a kept key is not enough to keep another) and keeps
    /// its key for `seconds`; returns when it expires.
    public func unlock(passphrase: Passphrase, seconds: Int) throws -> Date {
        ProcessHardening.forbidDumpsAndTracing()
        let vault = try Vault.open(at: vaultPath, passphrase: passphrase)
        defer { try? vault.close() }
        return try keys.keep(vault, seconds: seconds)
    }

    /// When the kept key expires, once it has opened the vault; nil when the vault is locked.
    public func expiry() throws -> Date? {
        ProcessHardening.forbidDumpsAndTracing()
        return try keys.expiry(ofVaultAt: vaultPath)
    }

    /// Drops the kept key at once; false when none was kept.
    public func lock() throws -> Bool {
        try keys.forget(vaultAt: vaultPath)
    }

    /// The vault opened with its kept key, or nil when the passphrase is needed.
    func open() throws -> UnlockedVault? {
        try keys.open(at: vaultPath)
    }

    /// Whether `error` is the keyring's: unusable here or refusing; the command then says so in
    /// one line and goes on as if nothing was kept.
    public static func isKeyringError(_ error: any Error) -> Bool { error is VaultKeyringError }
}
