import Crypto
import CryptoExtras
import Foundation

/// The vault's cryptography: scrypt for key slots, AES-256-GCM for everything encrypted, HKDF
/// for sub-keys and HMAC-SHA256 for the header.
enum VaultCrypto {
    /// A fresh random key of 256 bits.
    static func randomKey() -> SymmetricKey { SymmetricKey(size: .bits256) }

    /// Random bytes from the system CSPRNG.
    static func randomBytes(_ count: Int) -> [UInt8] {
        SecureRandomSource().bytes(count: count)
    }

    /// The key-encryption key a passphrase gives with a slot's salt and cost.
    static func keyEncryptionKey(_ passphrase: Passphrase, salt: [UInt8], parameters: ScryptParameters) throws -> SymmetricKey {
        try passphrase.withBytes { try scrypt($0, salt: salt, parameters: parameters) }
    }

    /// scrypt to a 256-bit key, with the memory the parameters need.
    static func scrypt(_ password: [UInt8], salt: [UInt8], parameters: ScryptParameters) throws -> SymmetricKey {
        try KDF.Scrypt.deriveKey(
            from: password, salt: salt, outputByteCount: 32, rounds: parameters.n, blockSize: parameters.r,
            parallelism: parameters.p, maxMemory: parameters.memoryLimit)
    }

    /// AES-256-GCM with a fresh random 96-bit nonce.
    static func seal(_ plaintext: some DataProtocol, key: SymmetricKey, authenticating aad: Data) throws -> (nonce: Data, ciphertext: Data)
    {
        let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(), authenticating: aad)
        return (Data(box.nonce), box.ciphertext + box.tag)
    }

    /// Opens what `seal` made; nil when the key is wrong or anything was changed.
    /// The box is built from one buffer (nonce, ciphertext, tag: `seal`'s layout): the
    /// separate parts went through swift-crypto's generic appends and a dynamic cast per entry.
    static func open(nonce: Data, ciphertext: Data, key: SymmetricKey, authenticating aad: some DataProtocol) -> Data? {
        guard nonce.count == 12, ciphertext.count >= 16 else { return nil }
        // Copied in one go: two appends to an empty Data cost more than the copy.
        var combined = Data(count: nonce.count + ciphertext.count)
        combined.withUnsafeMutableBytes { bytes in
            _ = nonce.copyBytes(to: bytes.bindMemory(to: UInt8.self))
            _ = ciphertext.copyBytes(to: UnsafeMutableBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[nonce.count...]))
        }
        guard let box = try? AES.GCM.SealedBox(combined: combined) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: aad)
    }

    /// A sub-key of the master key for one purpose: HKDF-SHA256 (RFC 5869) with one block of
    /// output, written out with HMAC (swift-crypto's HKDF gives the same key, as a test checks,
    /// but its first use makes the runtime scan every conformance in the binary, at every open).
    static func subkey(of master: SymmetricKey, purpose: String, salt: Data) -> SymmetricKey {
        let pseudoRandomKey = master.withUnsafeBytes { HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: salt)) }
        var info = CanonicalEncoding.utf8(purpose)
        info.append(1)
        return pseudoRandomKey.withUnsafeBytes { prk in
            SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: info, using: SymmetricKey(data: prk)))
        }
    }

    static func mac(_ data: Data, key: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: data, using: key))
    }

    static func verify(_ mac: Data, for data: Data, key: SymmetricKey) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: data, using: key)
    }
}
