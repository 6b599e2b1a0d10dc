import Domain
import DomainTestSupport
import Foundation
import Testing

@Suite("Account text: no control characters or bidi overrides")
struct AccountTextTests {
    static let secret = Secret(bytes: Array("12345678901234567890".utf8))

    @Test(
        "the issuer and the account name refuse each hostile text, naming the field",
        arguments: HostileText.corpus.map(\.text))
    func specRefuses(_ hostile: String) throws {
        #expect(throws: AccountValidationError.forbiddenCharacters(.issuer)) {
            try AccountSpec(issuer: hostile, name: "me", secret: Self.secret, kind: .totp(period: 30))
        }
        #expect(throws: AccountValidationError.forbiddenCharacters(.account)) {
            try AccountSpec(issuer: "Bank", name: hostile, secret: Self.secret, kind: .totp(period: 30))
        }
        #expect(throws: AccountValidationError.forbiddenCharacters(.note)) {
            try AccountText.validate(note: hostile, groups: [])
        }
        #expect(throws: AccountValidationError.forbiddenCharacters(.group)) {
            try AccountText.validate(note: "", groups: ["Work", hostile])
        }
    }

    @Test("a Key URI with a hostile label or issuer is refused; an import's parse removes the characters")
    func keyURI() throws {
        let uri = "otpauth://totp/Evil%1B%5D52%3Bc%3BaGk%3D%07Bank:me%E2%80%AE?secret=JBSWY3DPEHPK3PXP&issuer=Evil%1B%5D0%3Bx%07Bank"
        #expect(throws: KeyURIError.invalid(.forbiddenCharacters(.issuer))) { try KeyURI.parse(uri) }
        let (spec, cleaned) = try KeyURI.parse(uri, removingForbiddenText: true)
        #expect(spec.issuer == "Evil]0;xBank")
        #expect(spec.name == "me")
        #expect(cleaned == [.issuer, .account])
        #expect(try KeyURI.parse(KeyURI.format(spec)) == spec)
    }

    @Test("removing keeps every other character, emoji and accents included, and counts what it removed")
    func removing() {
        #expect(AccountText.removingForbidden("Ba\u{1B}[2Jnk\u{202E} 🔐 Café") == ("Ba[2Jnk 🔐 Café", 2))
        #expect(AccountText.removingForbidden("Plain Bank") == ("Plain Bank", 0))
        #expect(!AccountText.containsForbidden("Zürich (ñ) 東京 🔐"))
    }

    @Test("AddAccount and UpdateAccount refuse a hostile note or group and store nothing")
    func useCases() async throws {
        let repository = TestAccountRepository()
        let add = DefaultAddAccountUseCase(repository: repository, clock: FixedClock(unix: 59), random: CountingRandomSource())
        let spec = try AccountSpec(issuer: "Bank", name: "me", secret: Self.secret, kind: .totp(period: 30))
        await #expect(throws: AccountValidationError.forbiddenCharacters(.note)) {
            try await add.execute(spec, note: "see \u{1B}]52;c;eA==\u{07}", groups: [])
        }
        await #expect(throws: AccountValidationError.forbiddenCharacters(.group)) {
            try await add.execute(spec, note: "", groups: ["\u{202E}kroW"])
        }
        #expect(try await repository.list().isEmpty)
        var account = try await add.execute(spec, note: "", groups: [])
        account.note = "\u{1B}[2J"
        let update = DefaultUpdateAccountUseCase(repository: repository, clock: FixedClock(unix: 60))
        await #expect(throws: AccountValidationError.forbiddenCharacters(.note)) { try await update.execute(account) }
        #expect(try await repository.list().first?.note == "")
    }

    @Test("groups as written: trimmed, comma-separated, empty ones and repeats dropped; and back")
    func groupLists() {
        #expect(AccountText.groups(fromList: " Work, Banks ,,Work, ") == ["Work", "Banks"])
        #expect(AccountText.groups(fromList: "") == [])
        #expect(AccountText.groupList(["Work", "Banks"]) == "Work, Banks")
        #expect(AccountText.groups(fromList: AccountText.groupList(["a b", "c"])) == ["a b", "c"])
    }

    @Test("reordering puts the given first, in their order, then the rest as they were")
    func reordering() {
        let current = ["a", "b", "c", "d", "e"]
        #expect(AccountOrder.reordered(current, by: ["d", "b"]) { $0 } == ["d", "b", "a", "c", "e"])
        #expect(AccountOrder.reordered(current, by: ["x", "c", "c"]) { $0 } == ["c", "a", "b", "d", "e"])
        #expect(AccountOrder.reordered(current, by: [String]()) { $0 } == current)
    }
}
