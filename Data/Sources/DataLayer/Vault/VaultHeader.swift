import Crypto
import Foundation

/// The vault's header: format version, vault id and key slots, authenticated as a whole by an
/// HMAC under a key derived from the master key. Unlike Aegis's, a changed header is detected.
struct VaultHeader: Sendable {
    /// The format this code writes and reads.
    static let currentFormat = 1

    let formatVersion: Int
    let vaultID: Data
    let slots: [KeySlot]
    let mac: Data

    /// The bytes the MAC covers: everything in the header, slots in id order.
    static func authenticatedBytes(formatVersion: Int, vaultID: Data, slots: [KeySlot]) -> Data {
        var data = Data("tokens/header/v1".utf8)
        data.append(CanonicalEncoding.integers([formatVersion]))
        data.append(CanonicalEncoding.bytes(vaultID))
        data.append(CanonicalEncoding.integers([slots.count]))
        for slot in slots.sorted(by: { $0.id.lexicographicallyPrecedes($1.id) }) {
            data.append(KeySlot.additionalData(id: slot.id, kdf: slot.kdf, parameters: slot.parameters, salt: slot.salt))
            data.append(CanonicalEncoding.bytes(slot.nonce))
            data.append(CanonicalEncoding.bytes(slot.wrappedKey))
        }
        return data
    }

    static func headerKey(master: SymmetricKey, vaultID: Data) -> SymmetricKey {
        VaultCrypto.subkey(of: master, purpose: "tokens/header-mac/v1", salt: vaultID)
    }

    /// A header for these slots, with its MAC.
    static func make(vaultID: Data, slots: [KeySlot], master: SymmetricKey) -> VaultHeader {
        let bytes = authenticatedBytes(formatVersion: currentFormat, vaultID: vaultID, slots: slots)
        return VaultHeader(
            formatVersion: currentFormat, vaultID: vaultID, slots: slots,
            mac: VaultCrypto.mac(bytes, key: headerKey(master: master, vaultID: vaultID)))
    }

    func isAuthentic(master: SymmetricKey) -> Bool {
        let bytes = Self.authenticatedBytes(formatVersion: formatVersion, vaultID: vaultID, slots: slots)
        return VaultCrypto.verify(mac, for: bytes, key: Self.headerKey(master: master, vaultID: vaultID))
    }
}
