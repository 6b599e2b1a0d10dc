import Crypto
import Domain
import DomainTestSupport
import Foundation
import Testing

@testable import DataLayer

@Suite("HMAC-SHA1 with precomputed pads")
struct PrecomputedHMACSHA1Tests {
    /// The reference: swift-crypto's own HMAC-SHA1.
    static func reference(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    @Test("RFC 2202 test cases 1, 2, 6 and 7 (long keys)")
    func rfc2202() {
        let cases: [(key: [UInt8], message: String, mac: String)] = [
            ([UInt8](repeating: 0x0B, count: 20), "Hi There", "b617318655057264e28bc0b6fb378c8ef146be00"),
            (Array("Jefe".utf8), "what do ya want for nothing?", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
            (
                [UInt8](repeating: 0xAA, count: 80), "Test Using Larger Than Block-Size Key - Hash Key First",
                "aa4ae5e15272d00e95705637ce8a3b55ed402112"
            ),
            (
                [UInt8](repeating: 0xAA, count: 80), "Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data",
                "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"
            ),
        ]
        for testCase in cases {
            let mac = PrecomputedHMACSHA1(key: testCase.key).authenticationCode(for: Array(testCase.message.utf8))
            #expect(mac.map { String(format: "%02x", $0) }.joined() == testCase.mac)
        }
    }

    @Test("equals swift-crypto's HMAC for keys of 0–200 bytes and messages of 0–130 bytes")
    func matchesSwiftCrypto() {
        var random = SplitMix(seed: 0x5AA1)
        for keyLength in 0...200 {
            let key = (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &random) }
            let mac = PrecomputedHMACSHA1(key: key)
            for messageLength in [0, 1, 8, 20, 54, 55, 56, 63, 64, 65, 130] {
                let message = (0..<messageLength).map { _ in UInt8.random(in: 0...255, using: &random) }
                #expect(mac.authenticationCode(for: message) == Self.reference(message, key: key))
            }
        }
    }

    @Test("SwiftCryptoHMAC uses it for SHA-1 and swift-crypto for the others, with the same results")
    func providerAgrees() {
        let key = Array("12345678901234567890".utf8)
        let message: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]
        let provider = SwiftCryptoHMAC()
        #expect(provider.counterMAC(key: key, algorithm: .sha1) is PrecomputedHMACSHA1)
        #expect(provider.authenticationCode(for: message, key: key, algorithm: .sha1) == Self.reference(message, key: key))
        #expect(
            provider.authenticationCode(for: message, key: key, algorithm: .sha256)
                == Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))))
    }

    @Test("a counter's MAC is the HMAC of its 8 big-endian bytes, for every algorithm")
    func counterMACs() {
        var random = SplitMix(seed: 0xC0DE)
        let provider = SwiftCryptoHMAC()
        for keyLength in [1, 20, 64, 65, 128] {
            let key = (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &random) }
            for counter in [0, 1, 0x0102_0304_0506_0708, UInt64.max, UInt64.random(in: 0...UInt64.max, using: &random)] {
                let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
                for algorithm in OTPAlgorithm.allCases {
                    let mac = provider.counterMAC(key: key, algorithm: algorithm).authenticationCode(forCounter: counter)
                    #expect(mac.bytes == provider.authenticationCode(for: message, key: key, algorithm: algorithm))
                }
            }
        }
    }
}
