import Domain
import Foundation

/// The vault keys `tokens unlock` keeps in a keyring, each named and checked by its vault's id:
/// kept for a while, used to open the vault without its passphrase (and without scrypt), and
/// dropped when they no longer open it (the passphrase, and so the master key, changed since).
public struct VaultKeyCache: Sendable {
    /// The longest a key is kept: a day.
    public static let maximumSeconds = 86_400

    private let keyring: any VaultKeyring
    private let clock: any WallClock

    public init(keyring: any VaultKeyring = KernelKeyring(), clock: any WallClock = SystemClock()) {
        self.keyring = keyring
        self.clock = clock
    }

    /// Opens the vault at `path` with its kept key, checked as a passphrase's would be. Nil when
    /// no key is kept for this vault, it expired, or it no longer opens the vault (then it is
    /// dropped): the caller asks for the passphrase.
    public func open(at path: String) throws -> UnlockedVault? {
        try openWithKey(at: path)?.vault
    }

    /// `open(at:)`, with the key it used.
    private func openWithKey(at path: String) throws -> (vault: UnlockedVault, key: KeptVaultKey)? {
        var used: (identity: VaultIdentity, key: KeptVaultKey)?
        do {
            let vault = try Vault.open(at: path) { header in
                let identity = VaultIdentity(id: header.vaultID)
                guard let kept = try kept(for: identity) else { throw NothingKept() }
                used = (identity, kept)
                return kept.master
            }
            // Set whenever the vault opened: only a kept key opens it here.
            guard let used else {
                try? vault.close()
                return nil
            }
            return (vault, used.key)
        } catch is NothingKept {
            return nil
        } catch VaultError.headerTampered {
            guard let used else { throw VaultError.headerTampered }
            // Most likely rotated by `tokens passwd`; if the file was tampered with instead,
            // the passphrase will say so.
            try forget(used.identity)
            return nil
        }
    }

    /// Keeps the open vault's key for `seconds` (1 to `maximumSeconds`), replacing a key kept
    /// before; returns when it expires.
    @discardableResult
    public func keep(_ vault: UnlockedVault, seconds: Int) throws -> Date {
        precondition((1...Self.maximumSeconds).contains(seconds), "a key is kept from a second to a day")
        // In whole seconds from this second, as the kernel counts a timeout.
        let expires = Date(timeIntervalSince1970: clock.now().timeIntervalSince1970.rounded(.down) + TimeInterval(seconds))
        var payload = KeptVaultKey(vaultID: vault.vaultID, expires: expires, master: vault.keys.master).encoded()
        defer { payload.wipe() }
        try keyring.store(payload, named: VaultIdentity(id: vault.vaultID).keyName, seconds: seconds)
        return expires
    }

    /// When the key kept for the vault at `path` expires, once it has opened the vault; nil
    /// when no usable key is kept.
    public func expiry(ofVaultAt path: String) throws -> Date? {
        guard let (vault, key) = try openWithKey(at: path) else { return nil }
        try? vault.close()
        return key.expires
    }

    /// Drops the key kept for the vault at `path` at once; false when none was kept.
    @discardableResult
    public func forget(vaultAt path: String) throws -> Bool {
        try forget(try Vault.identity(at: path))
    }

    /// Drops the key kept for the vault `identity` names; false when none was kept.
    @discardableResult
    func forget(_ identity: VaultIdentity) throws -> Bool {
        try keyring.remove(named: identity.keyName)
    }

    /// The key kept for `identity`, if it is one of this format for this vault and unexpired.
    private func kept(for identity: VaultIdentity) throws -> KeptVaultKey? {
        guard var payload = try keyring.payload(named: identity.keyName) else { return nil }
        defer { payload.wipe() }
        guard let kept = KeptVaultKey(decoding: payload, for: identity.id) else { return nil }
        guard kept.expires > clock.now() else {
            try forget(identity)
            return nil
        }
        return kept
    }

    private struct NothingKept: Error {}
}
