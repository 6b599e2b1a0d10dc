import CEntryAEAD
import Crypto
import Foundation

/// The entries key, ready to open entries with: AES-256-GCM whose key schedule is made once
/// (`CEntryAEAD`, BoringSSL as swift-crypto links it), where `VaultCrypto.open` makes one for
/// every entry. The same cipher and checks as `VaultCrypto.open`, which the contract tests hold
/// it to; it opens on several threads at once.
final class EntryAEAD: @unchecked Sendable {
    /// BoringSSL's context, immutable once made (opening only reads it); nil where it cannot be
    /// made (Apple's platforms, where swift-crypto is CryptoKit), and then `key` opens through
    /// `VaultCrypto.open`.
    private let context: OpaquePointer?
    private let key: SymmetricKey

    init(key: SymmetricKey) {
        self.key = key
        context = key.withUnsafeBytes { key in
            tokens_entry_aead_new(key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count)
        }
    }

    deinit { tokens_entry_aead_free(context) }

    /// What `VaultCrypto.seal` sealed (`ciphertext` is the ciphertext then the tag) under
    /// `nonce` and `aad`; nil when the nonce or tag is not whole or anything was changed.
    func open(nonce: Data, ciphertext: Data, authenticating aad: [UInt8]) -> [UInt8]? {
        guard let context else { return Self.opened(VaultCrypto.open(nonce: nonce, ciphertext: ciphertext, key: key, authenticating: aad)) }
        guard nonce.count == 12, ciphertext.count >= 16 else { return nil }
        var opened: Int32 = 0
        // One byte at least, so that the buffer has an address even for an empty message.
        let plaintext = [UInt8](unsafeUninitializedCapacity: max(1, ciphertext.count - 16)) { out, count in
            var length = 0
            opened = nonce.withUnsafeBytes { nonce in
                ciphertext.withUnsafeBytes { sealed in
                    aad.withUnsafeBytes { aad in
                        tokens_entry_aead_open(
                            context, out.baseAddress, out.count, &length, nonce.baseAddress?.assumingMemoryBound(to: UInt8.self),
                            nonce.count, sealed.baseAddress?.assumingMemoryBound(to: UInt8.self), sealed.count,
                            aad.baseAddress?.assumingMemoryBound(to: UInt8.self), aad.count)
                    }
                }
            }
            count = opened == 1 ? length : 0
        }
        return opened == 1 ? plaintext : nil
    }

    /// The bytes of what `VaultCrypto.open` gave, its copy wiped.
    private static func opened(_ plaintext: Data?) -> [UInt8]? {
        guard var plaintext else { return nil }
        defer { plaintext.wipe() }
        return Array(plaintext)
    }
}
