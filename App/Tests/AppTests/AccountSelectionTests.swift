import Domain
import DomainTestSupport
import Foundation
import Testing

@testable import tokens

/// How the command line tells a query that picks no single account (the rule itself is Domain's
/// SelectAccount use case, tested there).
@Suite("Account selection on the command line")
struct AccountSelectionTests {
    static func account(_ id: String, issuer: String) -> Account {
        Account.stub(
            id: UUID(uuidString: id)!, issuer: issuer, name: "me", secret: Secret(bytes: [1]), createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0))
    }

    @Test("twins: the message shows each one's id, status 3")
    func twins() {
        let twins = [
            Self.account("3F2A91C0-0000-4000-8000-000000000001", issuer: "GitHub"),
            Self.account("77B1E2D4-0000-4000-8000-000000000002", issuer: "GitHub"),
        ]
        let error = AccountSelection.cliError(.ambiguous(query: "github", candidates: twins))
        #expect(
            error.message
                == "2 accounts match 'github': GitHub (me) [3f2a91c0], GitHub (me) [77b1e2d4]; be more specific, or give the id in brackets"
        )
        #expect(error.status == .ambiguous)
    }

    @Test("more than five candidates are cut with an ellipsis; no match is status 2")
    func manyAndNone() {
        let many = (1...7).map { Self.account("00000000-0000-4000-8000-00000000000\($0)", issuer: "Site") }
        #expect(AccountSelection.cliError(.ambiguous(query: "site", candidates: many)).message.contains("[00000000], …; be more"))
        let none = AccountSelection.cliError(.noMatch(query: "x"))
        #expect(none.message == "no account matches 'x'" && none.status == .noMatch)
    }
}
