import Domain
import Testing

/// A fake HMAC that answers with RFC 4226 Appendix D's intermediate HMAC-SHA-1 values for
/// counters 0–9, so the truncation and formatting are tested without any crypto library.
/// Asking it anything else records a test issue: a test cannot lean on it by accident.
public struct RFC4226HMAC: HMACProvider {
    /// The secret the RFC uses: ASCII "12345678901234567890".
    public static let secret = Secret(bytes: Array("12345678901234567890".utf8))

    /// HMAC-SHA-1(secret, counter) for counters 0 through 9, from the RFC.
    public static let hmacs: [String] = [
        "cc93cf18508d94934c64b65d8ba7667fb7cde4b0", "75a48a19d4cbe100644e8ac1397eea747a2d33ab",
        "0bacb7fa082fef30782211938bc1c5e70416ff44", "66c28227d03a2d5529262ff016a1e6ef76557ece",
        "a904c900a64b35909874b33e61c5938a8e15ed1c", "a37e783d7b7233c083d4f62926c7a25f238d0316",
        "bc9cd28561042c83f219324d3c607256c03272ae", "a4fb960c0bc06e1eabb804e5b397cdc4b45596fa",
        "1b3c89f65e6c9e883012052823443f048b4332db", "1637409809a679dc698207310c8c7fc07290d9e5",
    ]

    /// The truncated decimal values for counters 0 through 9, from the RFC.
    public static let truncated: [UInt32] = [
        1_284_755_224, 1_094_287_082, 137_359_152, 1_726_969_429, 1_640_338_314,
        868_254_676, 1_918_287_922, 82_162_583, 673_399_871, 645_520_489,
    ]

    /// The 6-digit HOTP values for counters 0 through 9, from the RFC.
    public static let codes = [
        "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489",
    ]

    public init() {}

    public func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm) -> [UInt8] {
        let counter = message.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard message.count == 8, key == Self.secret.bytes, algorithm == .sha1, counter < 10 else {
            Issue.record("RFC4226HMAC was asked for a value the RFC does not list (counter \(counter))")
            return Array(repeating: 0, count: 20)
        }
        return Self.bytes(hex: Self.hmacs[Int(counter)])
    }

    /// Bytes of a hex string.
    public static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
