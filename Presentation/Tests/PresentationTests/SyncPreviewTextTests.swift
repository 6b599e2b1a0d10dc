import Domain
import Foundation
import Presentation
import Testing

/// `tokens sync --dry-run`'s words: an account a line, the fields named, text from elsewhere
/// through the caller's escaping, and what the pull found said as what a sync would do.
@Suite("Sync preview text")
struct SyncPreviewTextTests {
    static func id(_ n: UInt8) -> UUID { UUID(uuid: (0xAB, 0xCD, 0xEF, n, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n)) }

    @Test("sections in order, accounts sorted by label, new, deleted, restored and the fields by name")
    func sections() {
        var preview = SyncPreview(report: SyncReport())
        preview.received = [
            .init(id: Self.id(2), issuer: "Zed", name: "z", fields: [.note, .secret]),
            .init(id: Self.id(1), issuer: "Acme", name: "", isNew: true),
            .init(id: Self.id(3), issuer: "", name: "bob", isDeleted: true, fields: [.deleted]),
        ]
        preview.sent = [.init(id: Self.id(4), issuer: "Old", name: "o", fields: [.deleted, .name])]
        preview.merged = [.init(id: Self.id(5), issuer: "Both", name: "b", fields: [.issuer])]
        #expect(
            SyncPreviewText.lines(for: preview, escape: { $0 }) == [
                "Would receive: 3",
                "  Acme [abcdef01]: new",
                "  bob [abcdef03]: deleted",
                "  Zed (z) [abcdef02]: note, secret",
                "Would send: 1",
                "  Old (o) [abcdef04]: restored, name",
                "Would merge, changed here and elsewhere (the fields taken from elsewhere): 1",
                "  Both (b) [abcdef05]: issuer",
            ])
        #expect(SyncPreviewText.lines(for: SyncPreview(report: SyncReport()), escape: { $0 }) == ["Nothing to receive, send or merge."])
    }

    @Test("text another machine wrote goes through the escaping it is given")
    func escaped() {
        var preview = SyncPreview(report: SyncReport())
        preview.received = [.init(id: Self.id(1), issuer: "Evil\u{1B}]52;c;AAAA\u{07}", name: "x", fields: [.issuer])]
        let lines = SyncPreviewText.lines(for: preview, escape: { $0.replacingOccurrences(of: "\u{1B}", with: "\\e") })
        #expect(lines.last == "  Evil\\e]52;c;AAAA\u{07} (x) [abcdef01]: issuer")
    }

    @Test("what the pull found is said as what a sync would do")
    func notices() {
        var report = SyncReport()
        report.serverBehind = true
        report.conflictCopies = [Self.id(1), Self.id(2)]
        #expect(
            SyncPreviewText.notices(for: SyncPreview(report: report)) == [
                "2 accounts have their key changed on two machines: a sync would keep the other version as a copy",
                "the server has lost changes this machine saw (restored from a backup?): a sync would merge and send them again",
            ])
    }
}
