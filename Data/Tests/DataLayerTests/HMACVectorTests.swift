import DataLayer
import Domain
import Foundation
import Testing

@Suite("swift-crypto HMAC through the OTP engine")
struct HMACVectorTests {
    /// RFC 6238 Appendix B seeds, per the errata: 20, 32 and 64 bytes.
    static let seeds: [OTPAlgorithm: Secret] = [
        .sha1: Secret(bytes: Array("12345678901234567890".utf8)),
        .sha256: Secret(bytes: Array("12345678901234567890123456789012".utf8)),
        .sha512: Secret(bytes: Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)),
    ]

    /// RFC 6238 Appendix B: all 18 values (8 digits, 30 s period).
    static let vectors: [(time: TimeInterval, algorithm: OTPAlgorithm, code: String)] = [
        (59, .sha1, "94287082"), (59, .sha256, "46119246"), (59, .sha512, "90693936"),
        (1_111_111_109, .sha1, "07081804"), (1_111_111_109, .sha256, "68084774"), (1_111_111_109, .sha512, "25091201"),
        (1_111_111_111, .sha1, "14050471"), (1_111_111_111, .sha256, "67062674"), (1_111_111_111, .sha512, "99943326"),
        (1_234_567_890, .sha1, "89005924"), (1_234_567_890, .sha256, "91819424"), (1_234_567_890, .sha512, "93441116"),
        (2_000_000_000, .sha1, "69279037"), (2_000_000_000, .sha256, "90698825"), (2_000_000_000, .sha512, "38618901"),
        (20_000_000_000, .sha1, "65353130"), (20_000_000_000, .sha256, "77737706"), (20_000_000_000, .sha512, "47863826"),
    ]

    let generator = OTPGenerator(hmac: SwiftCryptoHMAC())

    @Test("RFC 6238 Appendix B", arguments: vectors)
    func rfc6238(time: TimeInterval, algorithm: OTPAlgorithm, code: String) throws {
        let secret = try #require(Self.seeds[algorithm])
        let generated = generator.totp(
            secret: secret, at: Date(timeIntervalSince1970: time), period: 30, algorithm: algorithm, digits: 8)
        #expect(generated == code)
    }

    @Test("RFC 4226 Appendix D with the real HMAC-SHA-1")
    func rfc4226() {
        let secret = Secret(bytes: Array("12345678901234567890".utf8))
        let codes = (0..<10).map { generator.hotp(secret: secret, counter: UInt64($0)) }
        #expect(codes == ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"])
    }

    @Test("Steam Guard codes for BASE32SECRET3232", arguments: [(0, "2TC8B"), (30, "YKKK4"), (60, "M4HQB"), (90, "DTVB3")])
    func steam(time: TimeInterval, code: String) throws {
        let account = Account(
            id: UUID(), issuer: "Steam", name: "x", secret: try Secret(base32: "BASE32SECRET3232"), kind: .steam,
            digits: 5, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        let generated = DefaultGenerateCodesUseCase(hmac: SwiftCryptoHMAC())
            .execute(for: account, at: Date(timeIntervalSince1970: time))
        #expect(generated.code == code)
    }
}
