import Crypto
import Foundation

/// The keys of an unlocked vault, each derived from its master key and vault id (HKDF).
/// swift-crypto's SymmetricKey wipes its memory when released.
struct VaultKeys: Sendable {
    let master: SymmetricKey
    let vaultID: Data
    /// Encrypts the entries.
    let entries: SymmetricKey
    /// `entries`, ready to open entries with (its key schedule made once, not per entry).
    let entriesOpening: EntryAEAD
    /// Authenticates the header.
    let header: SymmetricKey

    init(master: SymmetricKey, vaultID: Data) {
        self.master = master
        self.vaultID = vaultID
        self.entries = VaultCrypto.subkey(of: master, purpose: "tokens/entries/v1", salt: vaultID)
        self.entriesOpening = EntryAEAD(key: entries)
        self.header = VaultHeader.headerKey(master: master, vaultID: vaultID)
    }

    /// Keys for a fresh random master key, for a new vault or a rotation.
    static func fresh(vaultID: Data) -> VaultKeys {
        VaultKeys(master: VaultCrypto.randomKey(), vaultID: vaultID)
    }
}
