/// Port: computes an HMAC. Data implements it with swift-crypto, so Domain needs no crypto library.
public protocol HMACProvider: Sendable {
    func authenticationCode(
        for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm
    ) -> [UInt8]

    /// An HMAC with the key already absorbed (its pads computed once), for many messages under
    /// one key: the OTP engine's hot path.
    func keyed(_ key: [UInt8], algorithm: OTPAlgorithm) -> any KeyedMAC
}

/// An HMAC under one fixed key.
public protocol KeyedMAC: Sendable {
    /// Calls `body` with the MAC of `message`. The bytes are valid only inside `body`, so an
    /// implementation can keep them on the stack: the OTP hot path allocates nothing.
    func withAuthenticationCode<Result>(
        for message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result
}

extension KeyedMAC {
    /// The MAC of `message` as an array (for callers off the hot path).
    public func authenticationCode(for message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { bytes in withAuthenticationCode(for: bytes) { Array($0) } }
    }
}

extension HMACProvider {
    /// By default, every message goes through the full HMAC with the key.
    public func keyed(_ key: [UInt8], algorithm: OTPAlgorithm) -> any KeyedMAC {
        UnpreparedMAC(provider: self, key: key, algorithm: algorithm)
    }
}

/// A KeyedMAC that simply calls its provider with the key each time.
struct UnpreparedMAC: KeyedMAC {
    let provider: any HMACProvider
    let key: [UInt8]
    let algorithm: OTPAlgorithm

    func withAuthenticationCode<Result>(
        for message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        provider.authenticationCode(for: Array(message), key: key, algorithm: algorithm).withUnsafeBytes(body)
    }
}
