import Domain
import DomainTestSupport
import Foundation
import Testing

@testable import tokens

/// `list --json`: what scripts read, and what a terminal shows when a person runs it.
@Suite("Account listing")
struct AccountListingTests {
    @Test(
        "list --json escapes DEL, C1 controls and bidi overrides inside strings, stays valid JSON, and carries the note",
        arguments: HostileText.corpus)
    func jsonEscapesControls(name: String, hostile: String) throws {
        var account = Account.stub(note: "note " + hostile)
        account.issuer = hostile
        let json = try AccountListing.json(
            [account], [GeneratedCode(accountID: account.id, code: "123456", secondsRemaining: 10, period: 30, nextCode: nil)])
        #expect(!json.unicodeScalars.contains { $0.value >= 0x7F && AccountText.isForbidden($0) }, "\(name)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(decoded.first?["issuer"] as? String == hostile, "\(name): the text is escaped, not changed")
        #expect(decoded.first?["note"] as? String == "note " + hostile)
    }
}
