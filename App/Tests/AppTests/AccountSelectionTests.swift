import Domain
import DomainTestSupport
import Foundation
import Testing

@testable import tokens

/// QUERY on the command line: text first, then an account's id or a prefix of it.
@Suite("Account selection by text or id")
struct AccountSelectionTests {
    static func account(_ id: String, issuer: String, name: String = "me") -> Account {
        Account.stub(
            id: UUID(uuidString: id)!, issuer: issuer, name: name, secret: Secret(bytes: [1]), createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0))
    }

    static let first = account("3F2A91C0-0000-4000-8000-000000000001", issuer: "GitHub")
    static let twin = account("77B1E2D4-0000-4000-8000-000000000002", issuer: "GitHub")
    static let facebook = account("0BADF00D-0000-4000-8000-000000000003", issuer: "Facebook")
    static let all = [first, twin, facebook]

    func select(_ query: String, _ matches: [Account]) throws -> Account {
        try AccountSelection.select(query, in: matches, byID: Self.all)
    }

    @Test("twins are ambiguous, and the error shows each one's id")
    func twins() throws {
        let error = #expect(throws: CLIError.self) { try select("github", [Self.first, Self.twin]) }
        #expect(error?.message == "2 accounts match 'github': GitHub (me) [3f2a91c0], GitHub (me) [77b1e2d4]; be more specific, or give the id in brackets")
    }

    @Test("an id prefix of 4 or more hex digits, any case, or the full id, picks one account", arguments: ["3f2a", "3F2A91C0", "77b1e2d4-0000", "0BADF00D-0000-4000-8000-000000000003"])
    func byID(query: String) throws {
        let expected = Self.all.first { $0.id.uuidString.lowercased().hasPrefix(query.lowercased()) }
        #expect(try select(query, []).id == expected?.id)
    }

    @Test("text wins over ids: 'face' is Facebook even if an id starts with face; 3 digits are not an id")
    func textFirst() throws {
        let faceID = Self.account("FACE0000-0000-4000-8000-000000000009", issuer: "Other")
        #expect(try AccountSelection.select("face", in: [Self.facebook], byID: Self.all + [faceID]).id == Self.facebook.id)
        #expect(throws: CLIError.self) { try select("3f2", []) }
        #expect(!AccountSelection.isIDPrefix("3f2") && AccountSelection.isIDPrefix("3f2a") && !AccountSelection.isIDPrefix("zzzz"))
    }

    @Test("a prefix two ids share is ambiguous")
    func sharedPrefix() throws {
        let close = Self.account("3F2A0000-0000-4000-8000-00000000000A", issuer: "Close")
        #expect(throws: CLIError.self) { try AccountSelection.select("3f2a", in: [], byID: Self.all + [close]) }
    }
}
