import DataLayer
import Domain
import Foundation
import Testing

/// Another app's export can carry terminal escapes in any text field. Imports keep the entry,
/// remove the characters, and say so per entry; nothing hostile reaches an account.
@Suite("Imports remove control characters and bidi overrides")
struct InteropHostileTextTests {
    static let hostile = Account(
        id: UUID(), issuer: "Evil\u{1B}]52;c;cm0gLXJmIH4=\u{07}Bank", name: "me\u{202E}", secret: Secret(bytes: Array(0..<20)),
        kind: .totp(period: 30), note: "see \u{1B}[2J", groups: ["\u{1B}]0;pwned\u{07}Work"],
        createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    static let plain = Account(
        id: UUID(), issuer: "Plain", name: "you", secret: Secret(bytes: Array(20..<40)), kind: .hotp(counter: 3),
        createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))

    /// The same two accounts as another app's otpauth:// list would write them.
    static let uriList = """
        otpauth://totp/Evil%1B%5D52%3Bc%3Bcm0gLXJmIH4%3D%07Bank:me%E2%80%AE?secret=AAAQEAYEAUDAOCAJBIFQYDIOB4IBCEQT&issuer=Evil%1B%5D52%3Bc%3Bcm0gLXJmIH4%3D%07Bank
        otpauth://hotp/Plain:you?secret=CQKRIFIWC4MBSGQ3DMPB2HQ6D4QCCIRD&issuer=Plain&counter=3
        """

    @Test(
        "through the otpauth list and Aegis: entries kept, characters removed, a notice per entry",
        arguments: [ExportFormat.keyURIs, .aegis])
    func cleaned(format: ExportFormat) throws {
        let codec = InteropCodec()
        let data =
            format == .aegis
            ? try codec.encode([Self.hostile, Self.plain], as: .aegis, password: nil).data : Data(Self.uriList.utf8)
        let imported = try codec.decode(data, as: nil, password: nil)
        #expect(imported.dropped.isEmpty)
        #expect(imported.entries.count == 2)
        let entry = try #require(imported.entries.first)
        #expect(entry.spec.issuer == "Evil]52;c;cm0gLXJmIH4=Bank")
        #expect(entry.spec.name == "me")
        #expect(imported.entries[1].spec.issuer == "Plain")
        for text in [entry.spec.issuer, entry.spec.name, entry.note] + entry.groups {
            #expect(!AccountText.containsForbidden(text), "\(text.debugDescription)")
        }
        let notices = imported.notices.filter { $0.reason.contains("control characters") }
        #expect(notices.count == 1, "\(imported.notices)")
        #expect(notices.first?.item.hasSuffix("Evil]52;c;cm0gLXJmIH4=Bank (me)") == true, "\(notices)")
        let fields = format == .aegis ? "issuer, account, note, groups" : "issuer, account"
        #expect(notices.first?.reason == "control characters or bidi overrides removed from \(fields)")
    }
}
