import DataLayer
import Domain
import Foundation
import Testing

@Suite("QR codes read from pictures")
struct QRPictureReaderTests {
    static let uri = "otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example"
    static let other = "otpauth://hotp/Other:bob?secret=GEZDGNBVGY3TQOJQ&counter=7"
    let reader = QRPictureReader()

    @Test("a code drawn by Tokens's own encoder is read back; two in one picture are both read")
    func readsCodes() throws {
        let one = try QREncoder().encode(Self.uri)
        #expect(try reader.texts(in: TestPNG.picture(of: [one])) == [Self.uri])
        let two = try QREncoder().encode(Self.other)
        #expect(try Set(reader.texts(in: TestPNG.picture(of: [one, two]))) == [Self.uri, Self.other])
    }

    @Test("light modules on a dark ground are read too; a picture without a code reads as none")
    func invertedAndEmpty() throws {
        let code = try QREncoder().encode(Self.uri)
        #expect(try reader.texts(in: TestPNG.picture(of: [code], inverted: true)) == [Self.uri])
        let blank = TestPNG.png(width: 200, height: 100, grey: [UInt8](repeating: 255, count: 200 * 100))
        #expect(try reader.texts(in: blank) == [])
    }

    @Test("a picture of 40 000 × 40 000 pixels is refused from its header, before any pixel is decoded")
    func tooLarge() throws {
        // 1.6 billion pixels claimed in a few kilobytes: refused as too large (not damaged, which
        // is what decoding its missing rows would find).
        #expect(throws: PictureReadError.tooLarge(width: 40_000, height: 40_000, limit: QRPictureReader.defaultMaxPixels)) {
            try reader.texts(in: TestPNG.claiming(width: 40_000, height: 40_000))
        }
        // The limit is the reader's: a smaller one refuses a picture the default reads.
        let code = try QREncoder().encode(Self.uri)
        let picture = TestPNG.picture(of: [code])
        let side = (code.size + 8) * 4
        #expect(throws: PictureReadError.tooLarge(width: side, height: side, limit: 100)) {
            try QRPictureReader(maxPixels: 100).texts(in: picture)
        }
    }

    @Test("a truncated or damaged picture, text or nothing: one error each, never a crash")
    func damaged() throws {
        let code = try QREncoder().encode(Self.uri)
        let picture = TestPNG.picture(of: [code])
        for cut in [picture.count / 2, 60, 33, 20] {
            #expect(throws: PictureReadError.self) { try reader.texts(in: picture.prefix(cut)) }
        }
        var flipped = picture
        flipped[40] ^= 0xFF
        #expect(throws: PictureReadError.self) { try reader.texts(in: flipped) }
        #expect(throws: PictureReadError.notAPicture) { try reader.texts(in: Data(Self.uri.utf8)) }
        #expect(throws: PictureReadError.notAPicture) { try reader.texts(in: Data()) }
        #expect(throws: PictureReadError.self) { try reader.texts(in: Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16])) }
    }
}

@Suite("Pictures imported")
struct PictureImportTests {
    @Test("a picture of Key URIs imports them; of Google Authenticator's transfer code, its accounts")
    func imports() throws {
        let codes = try [QRPictureReaderTests.uri, QRPictureReaderTests.other].map { try QREncoder().encode($0) }
        let decoded = try InteropCodec().decode(TestPNG.picture(of: codes), as: nil, password: nil)
        #expect(decoded.format == .keyURIs)
        #expect(Set(decoded.entries.map(\.spec.issuer)) == ["Example", "Other"])
        let transfer = "otpauth-migration://offline?data=CjEKCkhlbGxvId6tvu8SGEV4YW1wbGU6YWxpY2VAZ29vZ2xlLmNvbRoHRXhhbXBsZTAC"
        let migrated = try InteropCodec().decode(TestPNG.picture(of: [try QREncoder().encode(transfer)]), as: nil, password: nil)
        #expect(migrated.format == .googleMigration && migrated.entries.map(\.spec.name) == ["alice@google.com"])
    }

    @Test("a picture without a code, or whose codes hold no export, is one error")
    func nothingToImport() throws {
        let blank = TestPNG.png(width: 64, height: 64, grey: [UInt8](repeating: 255, count: 64 * 64))
        #expect(throws: ImportError.noCodeInPicture) { try InteropCodec().decode(blank, as: nil, password: nil) }
        let hello = TestPNG.picture(of: [try QREncoder().encode("hello")])
        #expect(throws: ImportError.noCodeInPicture) { try InteropCodec().decode(hello, as: nil, password: nil) }
    }
}
