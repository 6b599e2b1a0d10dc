import Crypto
import Foundation
import GRDB

/// An open, unlocked vault: the database and the keys, held only here.
/// swift-crypto's SymmetricKey wipes its memory when released.
public final class UnlockedVault: Sendable {
    let pool: DatabaseQueue
    public let path: String
    private let master: SymmetricKey
    let vaultID: Data
    /// The key entries are encrypted with (derived from the master key).
    let entryKey: SymmetricKey

    init(pool: DatabaseQueue, path: String, master: SymmetricKey, header: VaultHeader) {
        self.pool = pool
        self.path = path
        self.master = master
        self.vaultID = header.vaultID
        self.entryKey = VaultCrypto.subkey(of: master, purpose: "tokens/entries/v1", salt: header.vaultID)
    }

    /// How many key slots the vault has.
    public func slotCount() throws -> Int {
        try VaultStore.guarding(path: path) {
            try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM key_slot") ?? 0 }
        }
    }

    /// Replaces the passphrase: the master key is wrapped anew in a fresh slot (new salt), the
    /// old password slots go, and the header MAC is renewed, in one transaction. Entries are not
    /// re-encrypted: their key does not change.
    public func changePassphrase(to passphrase: Passphrase, kdf: ScryptParameters = .default) throws {
        guard !passphrase.isEmpty else { throw VaultError.emptyPassphrase }
        let slot = try KeySlot.make(wrapping: master, passphrase: passphrase, parameters: kdf)
        let header = VaultHeader.make(vaultID: vaultID, slots: [slot], master: master)
        try VaultStore.guarding(path: path) {
            try pool.write { db in try Vault.write(header, in: db) }
        }
    }

    /// Closes the database; the files are complete and the WAL checkpointed.
    public func close() throws {
        try VaultStore.guarding(path: path) { try pool.close() }
    }
}
