import DataLayer
import Domain
import Foundation
import Testing

/// The conformance corpus: real exports of other apps in ../shared/interop (absent in a user's
/// clone: then these tests are skipped, saying so; CI sets TOKENS_REQUIRE_ALL_TESTS=1, and there
/// a missing corpus fails). Every file must import every account, equal to its row of the
/// corpus table, and report whatever it drops.
@Suite(
    "Interop conformance (../shared/interop)",
    .enabled(
        if: InteropCorpus.folder != nil || InteropCorpus.required,
        "../shared/interop is not beside this checkout (it is only in the developers' and CI's)"))
struct InteropConformanceTests {
    @Test("the corpus is there")
    func corpusIsPresent() {
        #expect(
            InteropCorpus.folder != nil,
            "../shared/interop/aegis-fixtures is missing, and TOKENS_REQUIRE_ALL_TESTS=1 says this run must have it")
    }

    @Test("each file imports exactly its accounts, equal to the table, with the same codes", arguments: InteropCorpus.files)
    func conformance(_ file: InteropCorpus.File) throws {
        let data = try Data(contentsOf: try #require(InteropCorpus.folder).appendingPathComponent(file.name))
        let decoded = try InteropCodec().decode(data, as: nil, password: file.password)
        #expect(decoded.format == file.format, "detected \(decoded.format)")
        #expect(decoded.dropped.isEmpty, "dropped: \(decoded.dropped)")
        let bySecret = Dictionary(decoded.entries.map { ($0.spec.secret.base32, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(decoded.entries.count == file.rows.count, "imported \(decoded.entries.map(\.label))")
        let generator = OTPGenerator(hmac: SwiftCryptoHMAC())
        for number in file.rows {
            let row = InteropCorpus.rows[number - 1]
            guard let entry = bySecret[row.secret] else {
                Issue.record("row \(number) (\(row.issuer)) was not imported")
                continue
            }
            if file.onlySecret.contains(number) { continue }
            var expected = row.kind
            if case .hotp(let counter) = row.kind, file.format == .freeOTPPlus { expected = .hotp(counter: counter - 1) }
            #expect(entry.spec.issuer == (file.issuer ?? row.issuer), "row \(number)")
            #expect(entry.spec.name == row.account, "row \(number)")
            #expect(entry.spec.kind == expected, "row \(number)")
            #expect(entry.spec.algorithm == row.algorithm, "row \(number)")
            #expect(entry.spec.digits == row.digits, "row \(number)")
            let rowAccount = try Account(
                id: UUID(),
                spec: AccountSpec(
                    issuer: row.issuer, name: row.account, secret: Secret(base32: row.secret), kind: expected,
                    algorithm: row.algorithm, digits: row.digits), createdAt: Date())
            let imported = Account(id: UUID(), spec: entry.spec, createdAt: Date())
            for counter in [UInt64(0), 1, 57_000_000] {
                #expect(generator.code(for: imported, counter: counter) == generator.code(for: rowAccount, counter: counter))
            }
        }
    }

    @Test("encrypted files: no password asks for one; a wrong one says so", arguments: InteropCorpus.files.filter { $0.password != nil })
    func encrypted(_ file: InteropCorpus.File) throws {
        let data = try Data(contentsOf: try #require(InteropCorpus.folder).appendingPathComponent(file.name))
        #expect(throws: ImportError.passwordRequired(file.format)) { try InteropCodec().decode(data, as: nil, password: nil) }
        #expect(throws: ImportError.wrongPassword(file.format)) { try InteropCodec().decode(data, as: nil, password: "nope") }
    }
}

/// The corpus table of ../shared/interop/README.md, and which rows each file holds.
enum InteropCorpus {
    struct Row: Sendable {
        let issuer: String
        let account: String
        let kind: OTPKind
        let secret: String
        let algorithm: OTPAlgorithm
        let digits: Int
    }

    struct File: Sendable, CustomTestStringConvertible {
        let name: String
        let format: ImportFormat
        let rows: [Int]
        var password: String? = nil
        /// Rows whose secret is all the format keeps (Bitwarden's steam://).
        var onlySecret: Set<Int> = []
        /// The issuer the format gives every account, when it has one.
        var issuer: String? = nil
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(issuer: "Deno", account: "Mason", kind: .totp(period: 30), secret: "4SJHB4GSD43FZBAI7C2HLRJGPQ", algorithm: .sha1, digits: 6),
        Row(issuer: "SPDX", account: "James", kind: .totp(period: 20), secret: "5OM4WOOGPLQEF6UGN3CPEOOLWU", algorithm: .sha256, digits: 7),
        Row(
            issuer: "Airbnb", account: "Elijah", kind: .totp(period: 50), secret: "7ELGJSGXNCCTV3O6LKJWYFV2RA", algorithm: .sha512,
            digits: 8),
        Row(issuer: "Issuu", account: "James", kind: .hotp(counter: 1), secret: "YOOMIXWS5GN6RTBPUFFWKTW5M4", algorithm: .sha1, digits: 6),
        Row(
            issuer: "Air Canada", account: "Benjamin", kind: .hotp(counter: 50), secret: "KUVJJOM753IHTNDSZVCNKL7GII", algorithm: .sha256,
            digits: 7),
        Row(
            issuer: "WWE", account: "Mason", kind: .hotp(counter: 10300), secret: "5VAML3X35THCEBVRLV24CGBKOY", algorithm: .sha512,
            digits: 8),
        Row(issuer: "Boeing", account: "Sophia", kind: .steam, secret: "JRZCL47CMXVOQMNPZR2F7J4RGI", algorithm: .sha1, digits: 5),
        Row(
            issuer: "Battle.net", account: "US-2211-2050-3346", kind: .totp(period: 30), secret: "BMGRXPGFARQQF4GMT25JATL2VYLAHDBI",
            algorithm: .sha1, digits: 8),
    ]

    static let files: [File] = [
        File(name: "plain.txt", format: .keyURIs, rows: [1, 2, 3, 4, 5, 6, 7]),
        File(name: "aegis_plain.json", format: .aegis, rows: [1, 2, 3, 4, 5, 6, 7]),
        File(name: "aegis_encrypted.json", format: .aegis, rows: [1, 2, 3, 4, 5, 6, 7], password: "test"),
        File(name: "2fas_authenticator_plain_v4.2fas", format: .twoFAS, rows: [1, 4, 5, 6, 7]),
        File(name: "2fas_authenticator_encrypted_v4.2fas", format: .twoFAS, rows: [1, 4, 5, 6, 7], password: "test"),
        File(name: "ente_auth.txt", format: .ente, rows: [1, 2, 3, 4, 5, 6, 7]),
        File(name: "andotp_plain.json", format: .andOTP, rows: [1, 2, 3, 4, 5, 6, 7]),
        File(name: "andotp_encrypted.bin", format: .andOTP, rows: [1, 2, 3, 4, 5, 6, 7], password: "test"),
        File(name: "freeotp_plus.json", format: .freeOTPPlus, rows: [1, 2, 3, 4, 5, 6]),
        File(name: "bitwarden.json", format: .bitwarden, rows: [1, 2, 3, 7], onlySecret: [7]),
        File(name: "proton_authenticator.json", format: .proton, rows: [1, 2, 3]),
        File(name: "steam.json", format: .steam, rows: [7], issuer: "Steam"),
    ]

    /// Set by `.ci/run`: the corpus must be there, and its absence is a failure, not a skip.
    static let required = ProcessInfo.processInfo.environment["TOKENS_REQUIRE_ALL_TESTS"] == "1"

    /// ../shared/interop/aegis-fixtures beside the checkout, if it is there.
    static let folder: URL? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/interop/aegis-fixtures")
        return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
    }()
}
