import Domain

/// A fake HMAC whose codes are the counter itself: at time step 57 a 6-digit code is "000057".
/// View-model tests can then predict every code from the clock alone.
public struct CounterEchoHMAC: HMACProvider {
    public init() {}

    public func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm) -> [UInt8] {
        // Offset nibble 0 selects the first four bytes: the low 31 bits of the counter.
        Array(message.suffix(4)).enumerated().map { $0.offset == 0 ? $0.element & 0x7F : $0.element }
            + Array(repeating: 0, count: 16)
    }
}
