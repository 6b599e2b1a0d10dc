import Crypto
import Foundation

/// The vault's header: format version, vault id, key slots and (from format 2) the revision
/// and the manifest of every entry, authenticated as a whole by an HMAC under a key derived
/// from the master key. Unlike Aegis's, a changed header, and so a changed entry, is detected.
struct VaultHeader: Sendable {
    /// The format this code writes; formats 1 to 4 are still read, to migrate them.
    static let currentFormat = 5

    let formatVersion: Int
    let vaultID: Data
    let slots: [KeySlot]
    /// Counts the writes since creation (format 2).
    let revision: Int
    /// What `VaultManifest` says of the rows as the last write left them (format 2): their
    /// digest, or (format 4) the binding of the sealed index (format 5: of its pieces).
    let manifest: Data
    let mac: Data

    /// The bytes the MAC covers: everything in the header, slots in id order.
    static func authenticatedBytes(
        formatVersion: Int, vaultID: Data, slots: [KeySlot], revision: Int, manifest: Data
    ) -> Data {
        var data = CanonicalEncoding.utf8("tokens/header/v\(formatVersion == 1 ? 1 : 2)")
        data.append(CanonicalEncoding.integers([formatVersion]))
        data.append(CanonicalEncoding.bytes(vaultID))
        data.append(CanonicalEncoding.integers([slots.count]))
        for slot in slots.sorted(by: { $0.id.lexicographicallyPrecedes($1.id) }) {
            data.append(KeySlot.additionalData(id: slot.id, kdf: slot.kdf, parameters: slot.parameters, salt: slot.salt))
            data.append(CanonicalEncoding.bytes(slot.nonce))
            data.append(CanonicalEncoding.bytes(slot.wrappedKey))
        }
        if formatVersion >= 2 {
            data.append(CanonicalEncoding.integers([revision]))
            data.append(CanonicalEncoding.bytes(manifest))
        }
        return data
    }

    static func headerKey(master: SymmetricKey, vaultID: Data) -> SymmetricKey {
        VaultCrypto.subkey(of: master, purpose: "tokens/header-mac/v1", salt: vaultID)
    }

    /// A current-format header for these slots and entries, with its MAC.
    static func make(vaultID: Data, slots: [KeySlot], revision: Int, manifest: Data, keys: VaultKeys) -> VaultHeader {
        let bytes = authenticatedBytes(
            formatVersion: currentFormat, vaultID: vaultID, slots: slots, revision: revision, manifest: manifest)
        return VaultHeader(
            formatVersion: currentFormat, vaultID: vaultID, slots: slots, revision: revision, manifest: manifest,
            mac: VaultCrypto.mac(bytes, key: keys.header))
    }

    /// The same header after one more write that left the entries with `manifest`.
    func advanced(to manifest: Data, keys: VaultKeys) -> VaultHeader {
        Self.make(vaultID: vaultID, slots: slots, revision: revision + 1, manifest: manifest, keys: keys)
    }

    func isAuthentic(keys: VaultKeys) -> Bool {
        let bytes = Self.authenticatedBytes(
            formatVersion: formatVersion, vaultID: vaultID, slots: slots, revision: revision, manifest: manifest)
        return VaultCrypto.verify(mac, for: bytes, key: keys.header)
    }
}
