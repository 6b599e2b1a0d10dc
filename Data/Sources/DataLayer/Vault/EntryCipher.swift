import Domain
import Foundation

/// An entry's encryption: the account as JSON, sealed with AES-256-GCM under the entries key.
/// The associated data binds the ciphertext to its vault, its row id and (format 2) its
/// version, so a row copied from elsewhere, or an older copy of the same row, fails to open.
enum EntryCipher {
    static func additionalData(format: Int, vaultID: Data, id: String, version: Int) -> Data {
        CanonicalEncoding.data(additionalBytes(format: format, vaultID: vaultID, id: id, version: version))
    }

    /// `additionalData`'s bytes, as opening an entry passes them (no Data made for each entry).
    static func additionalBytes(format: Int, vaultID: Data, id: String, version: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(48 + vaultID.count + id.utf8.count)
        CanonicalEncoding.appendUTF8(format >= 2 ? "tokens/entry/v2" : "tokens/entry/v1", to: &bytes)
        CanonicalEncoding.appendBytes(vaultID, to: &bytes)
        CanonicalEncoding.appendString(id, to: &bytes)
        if format >= 2 { CanonicalEncoding.appendInteger(version, to: &bytes) }
        return bytes
    }

    /// `account` sealed as version `version` of its entry.
    static func seal(_ account: Account, version: Int, keys: VaultKeys) throws -> (nonce: Data, ciphertext: Data) {
        var plaintext = EntryPayloadDTO(account).jsonBytes()
        defer { plaintext.wipe() }
        let aad = additionalData(
            format: VaultHeader.currentFormat, vaultID: keys.vaultID, id: account.id.text, version: version)
        return try VaultCrypto.seal(plaintext, key: keys.entries, authenticating: aad)
    }

    /// The account a stored row holds; `entryDamaged` if it fails to open or decode.
    static func open(_ record: EntryRecord, keys: VaultKeys, format: Int = VaultHeader.currentFormat) throws -> Account {
        let aad = additionalBytes(format: format, vaultID: keys.vaultID, id: record.id, version: record.version)
        guard let id = EntryID.uuid(record.id),
            var plaintext = keys.entriesOpening.open(nonce: record.nonce, ciphertext: record.ciphertext, authenticating: aad)
        else { throw VaultError.entryDamaged(id: record.id) }
        defer { plaintext.wipe() }
        // What this build writes, read directly; anything older, through JSONDecoder.
        guard let payload = EntryPayloadDTO(jsonBytes: plaintext) ?? JSONDecoder().decodedWiping(EntryPayloadDTO.self, from: plaintext),
            let account = payload.toDomain(
                id: id, createdAt: Date(timeIntervalSince1970: record.createdAt),
                updatedAt: Date(timeIntervalSince1970: record.updatedAt))
        else { throw VaultError.entryDamaged(id: record.id) }
        return account
    }
}
