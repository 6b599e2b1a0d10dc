import Crypto
import Foundation

/// A key slot: the master key wrapped (AES-256-GCM) with a key derived from a passphrase.
/// The slot's own id, KDF name and parameters and salt are its additional data, so a changed
/// cost or salt cannot be swapped in unnoticed.
struct KeySlot: Hashable, Sendable {
    static let scrypt = "scrypt"

    let id: Data
    let kdf: String
    let parameters: ScryptParameters
    let salt: Data
    let nonce: Data
    let wrappedKey: Data

    /// Wraps `master` for `passphrase` in a new slot with a fresh id and salt.
    static func make(wrapping master: SymmetricKey, passphrase: Passphrase, parameters: ScryptParameters) throws -> KeySlot {
        let id = Data(VaultCrypto.randomBytes(16))
        let salt = Data(VaultCrypto.randomBytes(32))
        let kek = try VaultCrypto.keyEncryptionKey(passphrase, salt: Array(salt), parameters: parameters)
        var raw = master.withUnsafeBytes { Data($0) }
        defer { raw.resetBytes(in: 0..<raw.count) }
        let sealed = try VaultCrypto.seal(
            raw, key: kek, authenticating: additionalData(id: id, kdf: scrypt, parameters: parameters, salt: salt))
        return KeySlot(
            id: id, kdf: scrypt, parameters: parameters, salt: salt, nonce: sealed.nonce, wrappedKey: sealed.ciphertext)
    }

    /// The master key, if `passphrase` is this slot's.
    func unwrap(with passphrase: Passphrase) throws -> SymmetricKey? {
        guard kdf == Self.scrypt else { throw VaultError.unsupportedKDF(kdf) }
        guard parameters.isValid else { return nil }
        // A slot scrypt refuses (an empty salt, say) is one this passphrase cannot open.
        guard let kek = try? VaultCrypto.keyEncryptionKey(passphrase, salt: Array(salt), parameters: parameters) else { return nil }
        let aad = Self.additionalData(id: id, kdf: kdf, parameters: parameters, salt: salt)
        guard var raw = VaultCrypto.open(nonce: nonce, ciphertext: wrappedKey, key: kek, authenticating: aad) else {
            return nil
        }
        defer { raw.resetBytes(in: 0..<raw.count) }
        return SymmetricKey(data: raw)
    }

    static func additionalData(id: Data, kdf: String, parameters: ScryptParameters, salt: Data) -> Data {
        var data = CanonicalEncoding.utf8("tokens/slot/v1")
        data.append(id)
        data.append(CanonicalEncoding.string(kdf))
        data.append(CanonicalEncoding.integers([parameters.n, parameters.r, parameters.p]))
        data.append(CanonicalEncoding.bytes(salt))
        return data
    }
}

/// Length-prefixed, big-endian encodings, so different values never encode alike.
enum CanonicalEncoding {
    static func integers(_ values: [Int]) -> Data {
        var data = Data()
        for value in values { withUnsafeBytes(of: UInt64(truncatingIfNeeded: value).bigEndian) { data.append(contentsOf: $0) } }
        return data
    }

    static func bytes(_ bytes: Data) -> Data {
        integers([bytes.count]) + bytes
    }

    static func string(_ text: String) -> Data {
        bytes(utf8(text))
    }

    /// The text's UTF-8 bytes, copied at once: `Data(text.utf8)` takes the generic sequence
    /// path, whose dynamic casts cost a vault open about a tenth of a millisecond.
    static func utf8(_ text: String) -> Data {
        var text = text
        return text.withUTF8 { Data(buffer: $0) }
    }
}
