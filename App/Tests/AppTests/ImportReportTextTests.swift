import Domain
import Foundation
import Testing

@testable import tokens

/// The import report a user reads: whole when it fits a screen, summarised beyond.
@Suite("Import report text")
struct ImportReportTextTests {
    static func report(added: Int, dropped: Int = 0) throws -> ImportReport {
        let entries = try (0..<added).map { number in
            ImportedEntry(
                spec: try AccountSpec(
                    issuer: "Issuer \(number)", name: "me", secret: Secret(bytes: [UInt8(number % 256), 1]), kind: .totp(period: 30)))
        }
        return ImportReport(
            format: .aegis, added: entries, duplicates: [], duplicatePolicy: .skip,
            dropped: (0..<dropped).map { DroppedItem("entry \($0 + 1)", reason: "no secret") }, notices: [], isDryRun: false)
    }

    @Test("a report that fits a screen lists every entry")
    func whole() throws {
        let text = ImportReportText.render(try Self.report(added: 3, dropped: 1))
        #expect(
            text
                == "Aegis vault: added 3, duplicates 0 (skipped), dropped 1\n  + Issuer 0 (me)\n  + Issuer 1 (me)\n  + Issuer 2 (me)\n  ! dropped entry 1: no secret\n"
        )
    }

    @Test("10 000 entries: the first 10 of each kind, then how many more; --quiet prints the summary alone")
    func summarised() throws {
        let report = try Self.report(added: 10_000, dropped: 12)
        let lines = ImportReportText.render(report).split(separator: "\n")
        #expect(lines.count == 1 + 10 + 1 + 10 + 1)
        #expect(lines[11] == "  … and 9990 more added (--json lists every one)")
        #expect(lines.last == "  … and 2 more dropped (--json lists every one)")
        #expect(ImportReportText.render(report, quiet: true) == "Aegis vault: added 10000, duplicates 0 (skipped), dropped 12\n")
    }

    @Test("--json lists everything, with control characters escaped")
    func json() throws {
        let json = try ImportReportText.json(try Self.report(added: 2, dropped: 1))
        struct Decoded: Decodable {
            struct Named: Decodable { let issuer: String }
            let format: String
            let added: [Named]
            let dropped: [[String: String]]
        }
        let decoded = try JSONDecoder().decode(Decoded.self, from: Data(json.utf8))
        #expect(decoded.format == "aegis")
        #expect(decoded.added.map(\.issuer) == ["Issuer 0", "Issuer 1"])
        #expect(decoded.dropped == [["item": "entry 1", "reason": "no secret"]])
    }
}
