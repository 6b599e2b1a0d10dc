import Domain
import Foundation
import Testing

@testable import DataLayer

/// Big inputs are classified and refused on bytes, before any entry is parsed.
@Suite("Import limits on big files")
struct ImportScaleLimitsTests {
    @Test("100 001 Key URIs are refused before one is parsed")
    func tooManyURIs() throws {
        let lines = (0...100_000).map { "otpauth://totp/I\($0):me?secret=JBSWY3DPEHPK3PXP" }.joined(separator: "\n")
        #expect(throws: ImportError.tooManyEntries(100_001, limit: 100_000)) {
            try InteropCodec().decode(Data(lines.utf8), as: nil, password: nil)
        }
    }

    @Test("a line too long to be a Key URI is dropped and named, unread; the lines around it import")
    func longLine() throws {
        let text =
            "otpauth://totp/A:a?secret=JBSWY3DP\r\n\(String(repeating: "x", count: 70_000))\r\n\n  otpauth://totp/B:b?secret=JBSWY3DP\n"
        let decoded = try InteropCodec().decode(Data(text.utf8), as: .keyURIs, password: nil)
        #expect(decoded.entries.map(\.spec.issuer) == ["A", "B"])
        #expect(decoded.dropped.map(\.item) == ["line 2"])
        #expect(decoded.dropped.first?.reason == "the line is 70000 bytes long; a Key URI has at most 65536")
    }

    @Test(
        "the format is told from bytes: case, comments, white space and line ends as before",
        arguments: [
            ("  # a comment\r\n\tOTPAUTH://totp/A:b?secret=JBSWY3DP\r\n", ImportFormat.keyURIs),
            ("otpauth://totp/A:b?secret=JBSWY3DP&codeDisplay=%7B%7D\n", .ente),
            ("otpauth://totp/A:b?secret=JBSWY3DP\notpauth-migration://offline?data=AA\n", .googleMigration),
            ("# otpauth://totp/commented:out?secret=JBSWY3DP\n", nil),
            ("\u{1A}tpauth://totp/A:b?secret=JBSWY3DP\n", nil),
        ] as [(String, ImportFormat?)])
    func detects(text: String, format: ImportFormat?) {
        #expect(FormatDetector.detect(Data(text.utf8)) == format)
    }

    @Test(
        "byte search finds the needle at the start, the end and after a partial match, and nowhere else",
        arguments: [("otpauth…", true), ("…otpauth", true), ("otpautotpauth", true), ("otpaut", false), ("", false), ("OTPAUTH", false)])
    func byteSearch(text: String, found: Bool) {
        #expect(ByteLines.contains(Data(text.utf8), "otpauth") == found)
    }
}
