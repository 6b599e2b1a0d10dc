import Domain
import DomainTestSupport
import Foundation
import Testing

@testable import DataLayer

/// Tokens → each export format → Tokens gives the same accounts and codes; what a format cannot
/// hold is listed, never dropped silently.
@Suite("Export and import round trips")
struct InteropRoundTripTests {
    static let accounts: [Account] = [
        make(1, "GitHub", "octocat", .totp(period: 30), .sha1, 6, note: "work", groups: ["Work"], favorite: true),
        make(2, "Bank", "me", .hotp(counter: 42), .sha256, 8),
        make(3, "Long period", "x", .totp(period: 60), .sha512, 8),
        make(4, "Steam", "gaben", .steam, .sha1, 5),
        make(5, "Seven", "digits", .totp(period: 30), .sha1, 7),
    ]

    static func make(
        _ number: UInt8, _ issuer: String, _ name: String, _ kind: OTPKind, _ algorithm: OTPAlgorithm, _ digits: Int,
        note: String = "", groups: [String] = [], favorite: Bool = false
    ) -> Account {
        Account(
            id: UUID(), issuer: issuer, name: name, secret: Secret(bytes: (0..<20).map { $0 &* number &+ 7 }), kind: kind,
            algorithm: algorithm, digits: digits, note: note, isFavorite: favorite, groups: groups,
            createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    }

    static func same(_ entry: ImportedEntry, _ account: Account) -> Bool {
        entry.spec == (try? account.spec)
    }

    @Test("otpauth list, Aegis plain and Aegis encrypted keep every account", arguments: [ExportFormat.keyURIs, .aegis, .aegisEncrypted])
    func lossless(format: ExportFormat) throws {
        let codec = InteropCodec()
        let password = format == .aegisEncrypted ? "export password" : nil
        let exported = try codec.encode(Self.accounts, as: format, password: password)
        #expect(exported.omitted.isEmpty)
        let imported = try codec.decode(exported.data, as: nil, password: password)
        #expect(imported.dropped.isEmpty)
        #expect(imported.entries.count == Self.accounts.count)
        for (entry, account) in zip(imported.entries, Self.accounts) { #expect(Self.same(entry, account)) }
        if format != .keyURIs {
            #expect(imported.entries[0].note == "work" && imported.entries[0].groups == ["Work"] && imported.entries[0].isFavorite)
        }
        if format == .aegisEncrypted {
            for account in Self.accounts {
                #expect(exported.data.range(of: Data(account.secret.base32.utf8)) == nil)
                #expect(exported.data.range(of: Data(account.issuer.utf8)) == nil)
            }
            #expect(throws: ImportError.wrongPassword(.aegis)) { try codec.decode(exported.data, as: nil, password: "wrong") }
        }
    }

    @Test(
        "the fully populated account through Aegis, plain and encrypted (a format that carries every field): every field back",
        arguments: [ExportFormat.aegis, .aegisEncrypted])
    func everyField(format: ExportFormat) throws {
        let codec = InteropCodec()
        let password = format == .aegisEncrypted ? "export password" : nil
        let full = Account.fullyPopulated
        let exported = try codec.encode([full], as: format, password: password)
        let entry = try #require(try codec.decode(exported.data, as: nil, password: password).entries.first)
        #expect(entry.spec == (try full.spec))
        #expect(entry.note == full.note && Set(entry.groups) == Set(full.groups) && entry.isFavorite == full.isFavorite)
    }

    @Test("Google migration: 10 a batch; Steam, other periods and 7 digits are left out and listed")
    func google() throws {
        let many = Self.accounts + (10..<22).map { Self.make(UInt8($0), "Bulk \($0)", "u", .totp(period: 30), .sha1, 6) }
        let exported = try InteropCodec().encode(many, as: .googleMigration, password: nil)
        #expect(exported.omitted.map(\.item) == ["Long period (x)", "Steam (gaben)", "Seven (digits)"])
        let lines = String(decoding: exported.data, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("otpauth-migration://offline?data=") })
        let imported = try InteropCodec().decode(exported.data, as: nil, password: nil)
        #expect(imported.format == .googleMigration)
        #expect(imported.dropped.isEmpty)
        let kept = many.filter { account in !exported.omitted.contains { $0.item == account.displayName } }
        #expect(imported.entries.count == kept.count)
        for (entry, account) in zip(imported.entries, kept) { #expect(Self.same(entry, account)) }
        #expect(imported.notices.contains { $0.item == "period" })

        let onlyFirstBatch = Data((String(lines[0]) + "\n").utf8)
        let partial = try InteropCodec().decode(onlyFirstBatch, as: nil, password: nil)
        #expect(
            partial.dropped.map(\.description) == [
                "batches: missing batch 2 of 2: scan every QR code Google Authenticator showed"
            ])
    }

    @Test("bad entries are reported, not dropped silently; the rest still import")
    func reportsDrops() throws {
        let text = """
            # my codes
            otpauth://totp/Good:one?secret=JBSWY3DPEHPK3PXP

            otpauth://motp/Old:thing?secret=JBSWY3DPEHPK3PXP
            otpauth://totp/Bad:two?secret=JBSWY3DPEHPK3PX1
            """
        let decoded = try InteropCodec().decode(Data(text.utf8), as: nil, password: nil)
        #expect(decoded.entries.map(\.label) == ["Good (one)"])
        #expect(decoded.dropped.map(\.item) == ["line 4", "line 5"])
        #expect(decoded.dropped[0].reason.contains("motp"))
        #expect(!decoded.dropped.map(\.reason).joined().contains("JBSWY3DPEHPK3PX"))
    }

    @Test(
        "an mOTP entry is unsupported whatever its secret; a PIN is counted only on entries imported; a note's line breaks become spaces"
    )
    func otherAppsDetails() throws {
        let json = #"""
            {"version":1,"header":{"slots":null,"params":null},"db":{"version":3,"entries":[
            {"type":"motp","uuid":"01234567-89ab-4def-8123-456789abcdef","name":"x","issuer":"Old","note":"","info":
            {"secret":"0123abcdef","algo":"MD5","digits":6,"period":10,"pin":"1234"}},
            {"type":"totp","uuid":"11234567-89ab-4def-8123-456789abcdef","name":"y","issuer":"New","note":"multi\nline\r\nnote",
            "info":{"secret":"JBSWY3DPEHPK3PXP","algo":"SHA1","digits":6,"period":30,"pin":"5678"}},
            {"type":"totp","uuid":"21234567-89ab-4def-8123-456789abcdef","name":"z","issuer":"Plain","note":"","info":
            {"secret":"JBSWY3DPEHPK3PXP","algo":"SHA1","digits":6,"period":30}}
            ]}}
            """#
        let decoded = try InteropCodec().decode(Data(json.utf8), as: .aegis, password: nil)
        #expect(decoded.dropped.map(\.reason) == ["motp accounts are not supported"])
        #expect(decoded.entries.map(\.note) == ["multi line note", ""])
        #expect(decoded.notices.map(\.item) == ["PIN"], "no notice of characters removed: \(decoded.notices)")
        #expect(decoded.notices.first?.reason.contains("1 entry had one") == true, "\(decoded.notices)")
    }

    @Test("unknown content asks for --format; a named format that does not fit says so")
    func unknown() {
        #expect(throws: ImportError.unknownFormat) { try InteropCodec().decode(Data("hello".utf8), as: nil, password: nil) }
        #expect(throws: ImportError.self) { try InteropCodec().decode(Data("{}".utf8), as: .aegis, password: nil) }
    }

    @Test("formats are recognised only by their signature: a picture, a KeePass file or random bytes are not an andOTP backup")
    func signatures() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 200)
        // A PNG is read for its QR codes: these bytes are none, and say so.
        #expect(throws: ImportError.picture(reason: PictureReadError.damaged(reason: "[07][07][07][07]: invalid chunk type").description)) {
            try InteropCodec().decode(Data(png), as: nil, password: "pw")
        }
        let gif = Array("GIF89a".utf8) + Array(repeating: 7, count: 200)
        #expect(throws: ImportError.image(kind: "GIF")) { try InteropCodec().decode(Data(gif), as: nil, password: "pw") }
        #expect(ImportError.image(kind: "GIF").description.contains("PNG and JPEG pictures only"))
        let kdbx: [UInt8] = [0x03, 0xD9, 0xA2, 0x9A, 0x67, 0xFB, 0x4B, 0xB5] + Array(repeating: 1, count: 200)
        #expect(throws: ImportError.notAnExport(kind: "a KeePass database (.kdbx)")) {
            try InteropCodec().decode(Data(kdbx), as: nil, password: "pw")
        }
        var generator = SplitMix(seed: 14)
        for _ in 0..<50 {
            var bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes[0] = 0xC3  // never an andOTP iteration count, never valid UTF-8 after it
            #expect(throws: ImportError.unknownFormat) { try InteropCodec().decode(Data(bytes), as: nil, password: "pw") }
        }
        #expect(throws: ImportError.unknownFormat) {
            try InteropCodec().decode(Data(String(repeating: "a", count: 1000).utf8), as: nil, password: nil)
        }
        // An andOTP backup's header: 145 776 PBKDF2 rounds, then salt, nonce and ciphertext.
        let andOTP: [UInt8] = [0x00, 0x02, 0x39, 0x70] + Array(repeating: 0xFE, count: 60)
        #expect(FormatDetector.detect(Data(andOTP)) == .andOTP)
    }
}
