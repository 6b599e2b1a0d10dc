import Domain
import DomainTestSupport
import Foundation
import Presentation
import Testing

@Suite("tokens history's text")
struct AccountHistoryTextTests {
    static let id = UUID(uuidString: "3F2A1B4C-0000-4000-8000-000000000001")!
    static let laptop = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0xDE, 1))

    @Test("newest first, each line restorable as ID@VERSION, machines by name, secrets only named, outside text escaped")
    func lines() throws {
        let first = SyncRecord.sample(Self.id, issuer: "X\u{1B}co", note: "old")
        var second = first.noted("new", at: 2_000)
        second.key = Stamped(
            KeyMaterial(secret: Secret(bytes: [9, 9, 9]), kind: .totp(period: 30), algorithm: .sha1, digits: 6),
            changedAt: HybridTimestamp(milliseconds: 2_000, device: Self.laptop))
        let third = second.deleted(at: 3_000)
        let history = try #require(
            AccountHistory.assemble(
                id: Self.id,
                earlier: [
                    EarlierVersion(entry: RemoteEntry(sequence: 1, record: first, version: 1), replacedAt: Date()),
                    EarlierVersion(entry: RemoteEntry(sequence: 2, record: second, version: 2), replacedAt: Date()),
                ], current: third, currentVersion: 3))
        let lines = AccountHistoryText.lines(for: [history], machines: [Self.laptop: "laptop"]) {
            $0.replacingOccurrences(of: "\u{1B}", with: "\\e")
        }
        #expect(
            lines == [
                "X\\eco (me@example.com) [3f2a1b4c] (deleted)",
                "  3f2a1b4c@3  1970-01-01T00:00:03Z  laptop  deleted  (now)",
                "  3f2a1b4c@2  1970-01-01T00:00:02Z  laptop  key (secret, kind or digits), note",
                "  3f2a1b4c@1  1970-01-01T00:00:01Z  laptop  added",
            ])
        #expect(!lines.joined().contains("CQkJ") && !lines.joined().contains("090909"))
    }

    @Test("ID@VERSION is read strictly")
    func reference() {
        #expect(AccountHistoryText.reference("3F2A@4")! == ("3f2a", 4))
        for bad in ["3f2a", "@4", "3f2a@", "3f2a@0", "3f2a@x", "zz@1", "a@1@2", "3f2a@-1"] {
            #expect(AccountHistoryText.reference(bad) == nil)
        }
    }
}
