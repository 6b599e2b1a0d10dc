import Crypto
import CryptoExtras
import Domain
import Foundation

/// The ciphers other apps' encrypted exports use.
enum InteropCrypto {
    /// AES-GCM open; nil when the key is wrong or anything changed.
    static func openGCM(key: SymmetricKey, nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8]) -> Data? {
        guard let nonce = try? AES.GCM.Nonce(data: nonce),
            let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
        else { return nil }
        return try? AES.GCM.open(box, using: key)
    }

    /// AES-GCM open of ciphertext with its 16-byte tag at the end (the vault's own layout).
    static func openGCM(key: SymmetricKey, nonce: [UInt8], sealed: [UInt8]) -> Data? {
        VaultCrypto.open(nonce: Data(nonce), ciphertext: Data(sealed), key: key, authenticating: Data())
    }

    /// PBKDF2 with the round counts apps really use (below swift-crypto's default floor), bounded
    /// so a hostile file cannot ask for hours of work.
    /// The most PBKDF2 rounds an export may ask for: the apps write 10 000 (2FAS) to about
    /// 160 000 (andOTP); a file asking for millions would make the password check take seconds
    /// before it could even fail. Bounded as the Aegis importer bounds scrypt.
    static let maximumPBKDF2Rounds = 1_000_000

    /// The key, or nil for a round count below 1; `unsupported` for more than the bound.
    static func pbkdf2(
        _ password: String, salt: [UInt8], rounds: Int, hash: KDF.Insecure.PBKDF2.HashFunction, format: ImportFormat
    ) throws -> SymmetricKey? {
        guard rounds >= 1 else { return nil }
        guard rounds <= maximumPBKDF2Rounds else {
            throw ImportError.unsupported(
                format, "the file asks for \(rounds) PBKDF2 rounds; at most \(maximumPBKDF2Rounds) are taken (the app writes far fewer)")
        }
        return try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: hash, outputByteCount: 32, unsafeUncheckedRounds: rounds)
    }
}
