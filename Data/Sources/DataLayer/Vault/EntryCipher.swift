import Domain
import Foundation

/// An entry's encryption: the account as JSON, sealed with AES-256-GCM under the entries key.
/// The associated data binds the ciphertext to its vault, its row id and (format 2) its
/// version, so a row copied from elsewhere, or an older copy of the same row, fails to open.
enum EntryCipher {
    static func additionalData(format: Int, vaultID: Data, id: String, version: Int) -> Data {
        guard format >= 2 else {
            return Data("tokens/entry/v1".utf8) + CanonicalEncoding.bytes(vaultID) + CanonicalEncoding.string(id)
        }
        return Data("tokens/entry/v2".utf8) + CanonicalEncoding.bytes(vaultID) + CanonicalEncoding.string(id)
            + CanonicalEncoding.integers([version])
    }

    /// `account` sealed as version `version` of its entry.
    static func seal(_ account: Account, version: Int, keys: VaultKeys) throws -> (nonce: Data, ciphertext: Data) {
        var plaintext = EntryPayloadDTO(account).jsonBytes()
        defer { plaintext.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        let aad = additionalData(
            format: VaultHeader.currentFormat, vaultID: keys.vaultID, id: account.id.uuidString, version: version)
        return try VaultCrypto.seal(plaintext, key: keys.entries, authenticating: aad)
    }

    /// The account a stored row holds; `entryDamaged` if it fails to open or decode.
    static func open(_ record: EntryRecord, keys: VaultKeys, format: Int = VaultHeader.currentFormat) throws -> Account {
        let aad = additionalData(format: format, vaultID: keys.vaultID, id: record.id, version: record.version)
        guard let id = UUID(uuidString: record.id),
            var plaintext = VaultCrypto.open(
                nonce: record.nonce, ciphertext: record.ciphertext, key: keys.entries, authenticating: aad)
        else { throw VaultError.entryDamaged(id: record.id) }
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        // What this build writes, read directly; anything older, through JSONDecoder.
        guard let payload = EntryPayloadDTO(jsonBytes: plaintext) ?? (try? JSONDecoder().decode(EntryPayloadDTO.self, from: plaintext)),
            let account = payload.toDomain(
                id: id, createdAt: Date(timeIntervalSince1970: record.createdAt),
                updatedAt: Date(timeIntervalSince1970: record.updatedAt))
        else { throw VaultError.entryDamaged(id: record.id) }
        return account
    }
}
