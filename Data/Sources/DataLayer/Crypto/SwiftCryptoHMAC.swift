import Crypto
import Domain

/// The HMAC port implemented with swift-crypto (BoringSSL on Linux, CryptoKit on Apple systems).
/// HMAC-SHA1, the algorithm of nearly every OTP account, makes counters' codes through the
/// allocation-free `PrecomputedHMACSHA1`.
public struct SwiftCryptoHMAC: HMACProvider {
    public init() {}

    public func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm) -> [UInt8] {
        let key = SymmetricKey(data: key)
        return switch algorithm {
        case .sha1: Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
        case .sha256: Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
        case .sha512: Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
        }
    }

    public func counterMAC(key: [UInt8], algorithm: OTPAlgorithm) -> any CounterMAC {
        switch algorithm {
        case .sha1: PrecomputedHMACSHA1(key: key)
        case .sha256: KeyedHMAC(initial: HMAC<SHA256>(key: SymmetricKey(data: key)))
        case .sha512: KeyedHMAC(initial: HMAC<SHA512>(key: SymmetricKey(data: key)))
        }
    }
}
