import Crypto
import Domain

/// The HMAC port implemented with swift-crypto (BoringSSL on Linux, CryptoKit on Apple systems).
public struct SwiftCryptoHMAC: HMACProvider {
    public init() {}

    public func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm) -> [UInt8] {
        keyed(key, algorithm: algorithm).authenticationCode(for: message)
    }

    public func keyed(_ key: [UInt8], algorithm: OTPAlgorithm) -> any KeyedMAC {
        let key = SymmetricKey(data: key)
        return switch algorithm {
        case .sha1: KeyedHMAC(initial: HMAC<Insecure.SHA1>(key: key))
        case .sha256: KeyedHMAC(initial: HMAC<SHA256>(key: key))
        case .sha512: KeyedHMAC(initial: HMAC<SHA512>(key: key))
        }
    }
}

/// An HMAC state with the key's inner and outer pads already hashed; each message starts from
/// a copy of it, so the key costs nothing per code.
struct KeyedHMAC<H: HashFunction>: KeyedMAC, @unchecked Sendable {
    // HMAC<H> is a value type; it is only ever copied, never shared mutably.
    let initial: HMAC<H>

    func authenticationCode(for message: [UInt8]) -> [UInt8] {
        var mac = initial
        mac.update(data: message)
        return Array(mac.finalize())
    }
}
