import Crypto
import Domain
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

    /// Every slot, in id order.
    static func fetchAll(_ db: some VaultQuerying) throws -> [KeySlot] {
        try db.rows("SELECT id, kdf, kdf_n, kdf_r, kdf_p, salt, nonce, wrapped_key FROM key_slot ORDER BY id") { row in
            KeySlot(
                id: try row.blob(0), kdf: try row.text(1),
                parameters: ScryptParameters(n: try row.integer(2), r: try row.integer(3), p: try row.integer(4)),
                salt: try row.blob(5), nonce: try row.blob(6), wrappedKey: try row.blob(7))
        }
    }

    /// Wraps `master` for `passphrase` in a new slot with a fresh id and salt.
    static func make(wrapping master: SymmetricKey, passphrase: Passphrase, parameters: ScryptParameters) throws -> KeySlot {
        let id = Data(VaultCrypto.randomBytes(16))
        let salt = Data(VaultCrypto.randomBytes(32))
        let kek = try VaultCrypto.keyEncryptionKey(passphrase, salt: Array(salt), parameters: parameters)
        var raw = master.withUnsafeBytes { Data($0) }
        defer { raw.wipe() }
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
        defer { raw.wipe() }
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
        var bytes: [UInt8] = []
        for value in values { appendInteger(value, to: &bytes) }
        return data(bytes)
    }

    static func bytes(_ value: Data) -> Data {
        var bytes: [UInt8] = []
        appendBytes(value, to: &bytes)
        return data(bytes)
    }

    static func string(_ text: String) -> Data {
        var bytes: [UInt8] = []
        appendString(text, to: &bytes)
        return data(bytes)
    }

    /// The text's UTF-8 bytes, copied at once: `Data(text.utf8)` takes the generic sequence
    /// path, whose dynamic casts cost a vault open about a tenth of a millisecond.
    static func utf8(_ text: String) -> Data {
        var text = text
        return text.withUTF8 { Data(buffer: $0) }
    }

    // Appending to an array of bytes: Data's small appends, and its generic ones above all
    // (a dynamic cast each), cost more than the encoding.

    /// `integers([value])`, appended to `bytes`.
    static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: value).bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// `bytes(value)`, appended to `bytes`.
    static func appendBytes(_ value: Data, to bytes: inout [UInt8]) {
        appendInteger(value.count, to: &bytes)
        value.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// `string(text)`, appended to `bytes`.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            appendInteger(utf8.count, to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    /// `utf8(text)`, appended to `bytes`.
    static func appendUTF8(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// The bytes as Data, in one copy.
    static func data(_ bytes: [UInt8]) -> Data {
        bytes.withUnsafeBufferPointer { Data(buffer: $0) }
    }
}
