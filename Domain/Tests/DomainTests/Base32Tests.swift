import Domain
import Testing

@Suite("Base32 (RFC 4648)")
struct Base32Tests {
    /// RFC 4648 §10 test vectors, padding removed for encoding.
    static let vectors: [(String, String)] = [
        ("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="),
        ("foob", "MZXW6YQ="), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
    ]

    @Test("encodes the RFC 4648 §10 vectors without padding", arguments: vectors)
    func encodes(plain: String, encoded: String) {
        #expect(Base32.encode(Array(plain.utf8)) == encoded.replacingOccurrences(of: "=", with: ""))
    }

    @Test("decodes the RFC 4648 §10 vectors, padded and unpadded", arguments: vectors)
    func decodes(plain: String, encoded: String) throws {
        #expect(try Base32.decode(encoded) == Array(plain.utf8))
        #expect(try Base32.decode(encoded.replacingOccurrences(of: "=", with: "")) == Array(plain.utf8))
    }

    @Test("tolerates lower case, spaces and dashes")
    func tolerant() throws {
        let expected = try Base32.decode("JBSWY3DPEHPK3PXP")
        #expect(try Base32.decode("jbswy3dpehpk3pxp") == expected)
        #expect(try Base32.decode("JBSW Y3DP EHPK 3PXP") == expected)
        #expect(try Base32.decode("jbsw-y3dp-ehpk-3pxp") == expected)
    }

    @Test("names the position of a bad character, never the character (it is part of a secret)")
    func invalidCharacter() {
        #expect(throws: Base32Error.invalidCharacter(position: 5)) { try Base32.decode("JBSW1") }
        #expect(throws: Base32Error.invalidCharacter(position: 1)) { try Base32.decode("8AAAAAAA") }
        let error = Base32Error.invalidCharacter(position: 3)
        #expect(error.description == "invalid Base32 character at position 3 (use A–Z and 2–7)")
    }

    @Test("rejects lengths no byte string encodes to, and data after padding")
    func invalidShape() {
        #expect(throws: Base32Error.invalidLength(symbols: 1)) { try Base32.decode("A") }
        #expect(throws: Base32Error.invalidLength(symbols: 3)) { try Base32.decode("AAA") }
        #expect(throws: Base32Error.invalidLength(symbols: 6)) { try Base32.decode("AAAAAA") }
        #expect(throws: Base32Error.dataAfterPadding(position: 4)) { try Base32.decode("MY=A") }
    }

    @Test("round-trips every length from 0 to 64 bytes")
    func roundTrip() throws {
        for length in 0...64 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(try Base32.decode(Base32.encode(bytes)) == bytes)
        }
    }
}
