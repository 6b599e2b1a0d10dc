/// Port: computes an HMAC. Data implements it with swift-crypto, so Domain needs no crypto library.
public protocol HMACProvider: Sendable {
    /// The HMAC of `message` under `key`.
    func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm) -> [UInt8]

    /// HMACs of HOTP counters under `key`, for many counters under one key: an implementation can
    /// prepare the key once (the OTP engine asks once per account, then for a code per counter).
    func counterMAC(key: [UInt8], algorithm: OTPAlgorithm) -> any CounterMAC
}

/// HMACs under one fixed key of RFC 4226's message: a counter as 8 bytes, most significant first.
public protocol CounterMAC: Sendable {
    /// HMAC(key, counter as 8 big-endian bytes).
    func authenticationCode(forCounter counter: UInt64) -> MACValue
}

extension HMACProvider {
    /// By default, every counter goes through `authenticationCode(for:key:algorithm:)`.
    public func counterMAC(key: [UInt8], algorithm: OTPAlgorithm) -> any CounterMAC {
        UnpreparedCounterMAC(provider: self, key: key, algorithm: algorithm)
    }
}

/// A CounterMAC that calls its provider with the key and the counter's bytes each time.
struct UnpreparedCounterMAC: CounterMAC {
    let provider: any HMACProvider
    let key: [UInt8]
    let algorithm: OTPAlgorithm

    func authenticationCode(forCounter counter: UInt64) -> MACValue {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        return MACValue(provider.authenticationCode(for: message, key: key, algorithm: algorithm))
    }
}
