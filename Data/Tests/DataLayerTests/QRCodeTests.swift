import DataLayer
import Domain
import Testing

@Suite("QR codes with libqrencode")
struct QRCodeTests {
    @Test("a short text is a version 1 code (21 modules) with its three finder patterns")
    func finderPatterns() throws {
        let code = try LibQREncoder().encode("HELLO")
        #expect(code.size == 21)
        for (top, left) in [(0, 0), (0, 14), (14, 0)] {
            // The finder pattern's outer ring is dark, the ring inside it light, the centre dark.
            #expect(code.isDark(row: top, column: left) && code.isDark(row: top + 6, column: left + 6))
            #expect(!code.isDark(row: top + 1, column: left + 1))
            #expect(code.isDark(row: top + 3, column: left + 3))
        }
    }

    @Test("a Key URI fits; longer text makes a larger code; too much is an error")
    func sizes() throws {
        let uri = "otpauth://totp/GitHub:octocat?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=GitHub&algorithm=SHA1&digits=6&period=30"
        #expect(try LibQREncoder().encode(uri).size > 21)
        #expect(throws: QRCodeError.tooLong) { try LibQREncoder().encode(String(repeating: "x", count: 5000)) }
    }
}
