import Domain
import DomainTestSupport
import Foundation
import Testing

@Suite("OTP engine")
struct OTPGeneratorTests {
    let generator = OTPGenerator(hmac: RFC4226HMAC())

    @Test("RFC 4226 Appendix D: dynamic truncation of the RFC's own HMAC values", arguments: 0..<10)
    func truncation(counter: Int) {
        let mac = RFC4226HMAC.bytes(hex: RFC4226HMAC.hmacs[counter])
        #expect(OTPGenerator.truncate(mac) == RFC4226HMAC.truncated[counter])
    }

    @Test("RFC 4226 Appendix D: HOTP values for counters 0–9", arguments: 0..<10)
    func hotp(counter: Int) {
        #expect(generator.hotp(secret: RFC4226HMAC.secret, counter: UInt64(counter)) == RFC4226HMAC.codes[counter])
    }

    @Test("zero-pads short values and supports up to 10 digits")
    func decimal() {
        #expect(OTPGenerator.decimal(82_162_583, digits: 6) == "162583")
        #expect(OTPGenerator.decimal(42, digits: 6) == "000042")
        #expect(OTPGenerator.decimal(82_162_583, digits: 8) == "82162583")
        #expect(OTPGenerator.decimal(82_162_583, digits: 10) == "0082162583")
        #expect(OTPGenerator.decimal(2_147_483_647, digits: 10) == "2147483647")
    }

    @Test("Steam codes take five characters from Steam's alphabet, least significant first")
    func steam() {
        #expect(OTPGenerator.steam(0) == "22222")
        #expect(OTPGenerator.steam(1) == "32222")
        #expect(OTPGenerator.steam(26) == "23222")
        #expect(OTPGenerator.steam(UInt32(Int32.max)).allSatisfy(OTPGenerator.steamAlphabet.contains))
    }

    @Test("TOTP time steps: floor(t / period) with a 64-bit counter")
    func timeSteps() {
        #expect(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: 59), period: 30) == 1)
        #expect(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: 60), period: 30) == 2)
        #expect(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: 20_000_000_000), period: 30) == 666_666_666)
        #expect(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: 59), period: 60) == 0)
        #expect(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: -5), period: 30) == 0)
    }

    @Test("TOTP is HOTP of the time step")
    func totp() {
        let code = generator.totp(secret: RFC4226HMAC.secret, at: Date(timeIntervalSince1970: 95), period: 30)
        #expect(code == RFC4226HMAC.codes[3])
    }
}
