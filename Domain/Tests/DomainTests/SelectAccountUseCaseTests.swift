import Domain
import DomainTestSupport
import Foundation
import Testing

/// QUERY on the command line: text first, then an account's id or a prefix of it.
@Suite("SelectAccount: by text or id")
struct SelectAccountUseCaseTests {
    static func account(_ id: String, issuer: String, name: String = "me") -> Account {
        Account.stub(
            id: UUID(uuidString: id)!, issuer: issuer, name: name, secret: Secret(bytes: [1]), createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0))
    }

    static let first = account("3F2A91C0-0000-4000-8000-000000000001", issuer: "GitHub")
    static let twin = account("77B1E2D4-0000-4000-8000-000000000002", issuer: "GitHub")
    static let facebook = account("0BADF00D-0000-4000-8000-000000000003", issuer: "Facebook")
    static let all = [first, twin, facebook]

    func select(_ query: String, _ matches: [Account]) throws(AccountSelectionError) -> Account {
        try DefaultSelectAccountUseCase.select(query, in: matches, among: Self.all)
    }

    @Test("twins are ambiguous, naming both")
    func twins() {
        #expect(throws: AccountSelectionError.ambiguous(query: "github", candidates: [Self.first, Self.twin])) {
            try select("github", [Self.first, Self.twin])
        }
    }

    @Test(
        "an id prefix of 4 or more hex digits, any case, or the full id, picks one account",
        arguments: ["3f2a", "3F2A91C0", "77b1e2d4-0000", "0BADF00D-0000-4000-8000-000000000003"])
    func byID(query: String) throws {
        let expected = Self.all.first { $0.id.uuidString.lowercased().hasPrefix(query.lowercased()) }
        #expect(try select(query, []).id == expected?.id)
    }

    @Test("text wins over ids: 'face' is Facebook even if an id starts with face; 3 digits are not an id")
    func textFirst() throws {
        let faceID = Self.account("FACE0000-0000-4000-8000-000000000009", issuer: "Other")
        #expect(try DefaultSelectAccountUseCase.select("face", in: [Self.facebook], among: Self.all + [faceID]).id == Self.facebook.id)
        #expect(throws: AccountSelectionError.noMatch(query: "3f2")) { try select("3f2", []) }
        #expect(AccountIDPrefix("3f2") == nil && AccountIDPrefix("3f2a") != nil && AccountIDPrefix("zzzz") == nil)
        #expect(AccountIDPrefix("3f2a91c0-0000-4000-8000-0000000000011") == nil, "longer than an id")
    }

    @Test("a prefix two ids share is ambiguous")
    func sharedPrefix() {
        let close = Self.account("3F2A0000-0000-4000-8000-00000000000A", issuer: "Close")
        #expect(throws: AccountSelectionError.ambiguous(query: "3f2a", candidates: [Self.first, close])) {
            try DefaultSelectAccountUseCase.select("3f2a", in: [], among: Self.all + [close])
        }
    }

    @Test("an exact issuer or name wins over partial matches; nothing or two partial matches do not pick")
    func exactWins() throws {
        let google = Self.account("00000000-0000-4000-8000-000000000011", issuer: "Google")
        let cloud = Self.account("00000000-0000-4000-8000-000000000012", issuer: "Google Cloud")
        let reads = Self.account("00000000-0000-4000-8000-000000000013", issuer: "Goodreads")
        #expect(try DefaultSelectAccountUseCase.select("google", in: [google, cloud]) == google)
        #expect(try DefaultSelectAccountUseCase.select("cloud", in: [cloud]) == cloud)
        #expect(throws: AccountSelectionError.noMatch(query: "x")) { try DefaultSelectAccountUseCase.select("x", in: []) }
        #expect(throws: AccountSelectionError.ambiguous(query: "goo", candidates: [cloud, reads])) {
            try DefaultSelectAccountUseCase.select("goo", in: [cloud, reads])
        }
    }

    @Test("a whole display name, as the ambiguity message prints it, picks its account; twins by name stay ambiguous")
    func displayName() throws {
        let steam = Self.account("00000000-0000-4000-8000-000000000021", issuer: "Steam", name: "gaben")
        let other = Self.account("00000000-0000-4000-8000-000000000022", issuer: "Steam", name: "alice")
        #expect(try DefaultSelectAccountUseCase.select("Steam (gaben)", in: [], among: [steam, other]) == steam)
        #expect(try DefaultSelectAccountUseCase.select("stéam (GABEN)", in: [], among: [steam, other]) == steam)
        let again = Self.account("00000000-0000-4000-8000-000000000023", issuer: "Steam", name: "gaben")
        #expect(throws: AccountSelectionError.ambiguous(query: "Steam (gaben)", candidates: [steam, again])) {
            try DefaultSelectAccountUseCase.select("Steam (gaben)", in: [], among: [steam, again])
        }
    }

    @Test("the use case searches first, and lists the accounts only when the words match nothing")
    func throughTheUseCase() async throws {
        let useCase = DefaultSelectAccountUseCase(
            search: DefaultSearchAccountsUseCase(listAccounts: FixedList(accounts: Self.all)), listAccounts: FixedList(accounts: Self.all))
        #expect(try await useCase.execute(query: "facebook") == Self.facebook)
        #expect(try await useCase.execute(query: "77b1") == Self.twin)
        #expect(try await useCase.execute(query: "Facebook (me)") == Self.facebook)
        await #expect(throws: AccountSelectionError.noMatch(query: "nothing")) { try await useCase.execute(query: "nothing") }
    }

    @Test(
        "an id prefix matches the id's text from its start, with dashes where the text has them",
        arguments: [
            ("3f2a", true), ("3F2A91C0", true), ("3f2a91c0-", true), ("3f2a91c0-0000-4000-8000-000000000001", true),
            ("3f2a91c00000", false), ("2a91", false), ("3f2b", false),
        ])
    func prefixRule(text: String, matches: Bool) throws {
        let prefix = try #require(AccountIDPrefix(text), "\(text)")
        #expect(prefix.matches(Self.first.id) == matches, "\(text)")
    }

    @Test("the id rule agrees with the id's lower-case text on seeded random ids and prefixes (cut anywhere, any case, one digit changed)")
    func prefixRuleAgreesWithText() throws {
        var random = SplitMix(seed: 38)
        for _ in 0..<2_000 {
            let digits = (0..<32).map { _ in "0123456789ABCDEF".randomElement(using: &random)! }
            let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
            let id = try #require(UUID(uuidString: groups.joined(separator: "-")))
            var text = Array(id.uuidString.prefix(Int.random(in: 4...36, using: &random)))
            if Bool.random(using: &random) { text = text.map { Bool.random(using: &random) ? Character($0.lowercased()) : $0 } }
            if Bool.random(using: &random), let at = text.indices.randomElement(using: &random), text[at] != "-" {
                text[at] = text[at] == "0" ? "1" : "0"
            }
            guard let prefix = AccountIDPrefix(String(text)) else { continue }
            #expect(prefix.matches(id) == id.uuidString.lowercased().hasPrefix(String(text).lowercased()), "\(String(text)) of \(id)")
        }
    }

    @Test("given the repository, an id the words do not match is looked up there, without listing every account")
    func idThroughTheRepository() async throws {
        let useCase = DefaultSelectAccountUseCase(
            search: DefaultSearchAccountsUseCase(listAccounts: FixedList(accounts: Self.all)), listAccounts: Unlisted(),
            repository: TestAccountRepository(Self.all))
        #expect(try await useCase.execute(query: "77b1") == Self.twin)
        #expect(try await useCase.execute(query: "0BADF00D-0000") == Self.facebook)
        await #expect(throws: AccountSelectionError.noMatch(query: "ffff")) { try await useCase.execute(query: "ffff") }
        #expect(try await useCase.execute(query: "facebook") == Self.facebook)
        await #expect(throws: AccountSelectionError.noMatch(query: "githbu")) { try await useCase.execute(query: "githbu") }
    }

    @Test("a whole display name is read only when the query has a parenthesis; one without matches no words and lists nothing")
    func displayNameNeedsParenthesis() async throws {
        let named = Self.account("00000000-0000-4000-8000-000000000031", issuer: "Acme", name: "")
        let unlisted = DefaultSelectAccountUseCase(
            search: DefaultSearchAccountsUseCase(listAccounts: FixedList(accounts: Self.all + [named])), listAccounts: Unlisted())
        #expect(try await unlisted.execute(query: "ACME") == named, "a display name of one field is found by its words")
        await #expect(throws: AccountSelectionError.noMatch(query: "nothing at all")) {
            try await unlisted.execute(query: "nothing at all")
        }
        let steam = Self.account("00000000-0000-4000-8000-000000000032", issuer: "Steam", name: "gaben")
        let byWords = DefaultSelectAccountUseCase(
            search: DefaultSearchAccountsUseCase(listAccounts: FixedList(accounts: Self.all + [steam])), listAccounts: Unlisted())
        #expect(try await byWords.execute(query: "Facebook （me）") == Self.facebook, "full-width parentheses fold to ( and )")
        #expect(try await byWords.execute(query: "steam (GABEN)") == steam, "found among what its words find, not by listing")
        await #expect(throws: AccountSelectionError.noMatch(query: "Steam (gabe)")) { try await byWords.execute(query: "Steam (gabe)") }
    }

    @Test(
        "a whole display name finds what reading every account's finds, on seeded random names (accents, case, ligatures, parentheses, full width)"
    )
    func displayNameAgreesWithEveryAccount() async throws {
        var random = SplitMix(seed: 3_838)
        let pieces = ["a", "B", "é", "E\u{301}", "ß", "SS", "(", ")", " ", "（", "）", "İ", "ﬁ", "fi", "Ω", "-", "x"]
        func text() -> String { (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        func outcome(_ select: () async throws -> Account) async -> String {
            do { return try await select().id.uuidString } catch { return "\(error)" }
        }
        for round in 0..<400 {
            let accounts = (0..<4).map { index in
                Self.account(
                    String(format: "00000000-0000-4000-8000-%012d", round * 10 + index), issuer: text(),
                    name: Bool.random(using: &random) ? "" : text())
            }
            let query = accounts.randomElement(using: &random)!.displayName
            let matches = accounts.filter { AccountQuery(query).matches($0) }
            let reference = await outcome {
                try DefaultSelectAccountUseCase.select(query, in: matches, among: matches.isEmpty ? accounts : [])
            }
            let useCase = DefaultSelectAccountUseCase(
                search: DefaultSearchAccountsUseCase(listAccounts: FixedList(accounts: accounts)), listAccounts: Unlisted())
            #expect(await outcome { try await useCase.execute(query: query) } == reference, "\(query) among \(accounts.map(\.displayName))")
        }
    }

    /// ListAccounts that must not be asked.
    struct Unlisted: ListAccountsUseCase {
        func execute() async throws -> [Account] {
            Issue.record("every account was listed")
            return []
        }
    }

    /// ListAccounts over a fixed list.
    struct FixedList: ListAccountsUseCase {
        let accounts: [Account]
        func execute() async throws -> [Account] { accounts }
    }
}
