import Crypto
import Domain

/// The HMAC port implemented with swift-crypto (BoringSSL on Linux, CryptoKit on Apple systems).
/// HMAC-SHA1, the algorithm of nearly every OTP account, takes the allocation-free
/// `PrecomputedHMACSHA1` path for the one-block messages OTP uses.
public struct SwiftCryptoHMAC: HMACProvider {
    public init() {}

    public func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm) -> [UInt8] {
        keyed(key, algorithm: algorithm).authenticationCode(for: message)
    }

    public func keyed(_ key: [UInt8], algorithm: OTPAlgorithm) -> any KeyedMAC {
        switch algorithm {
        case .sha1: PrecomputedHMACSHA1(key: key)
        case .sha256: KeyedHMAC(initial: HMAC<SHA256>(key: SymmetricKey(data: key)))
        case .sha512: KeyedHMAC(initial: HMAC<SHA512>(key: SymmetricKey(data: key)))
        }
    }
}
