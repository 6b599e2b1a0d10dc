import Domain
import DomainTestSupport
import Foundation
import Testing

@Suite("Use cases")
struct UseCaseTests {
    let clock = FixedClock(unix: 59)
    let repository = TestAccountRepository()

    @Test("AddAccount from a URI stores a validated account with an injected id and time")
    func addFromURI() async throws {
        let add = DefaultAddAccountUseCase(repository: repository, clock: clock, random: CountingRandomSource())
        let account = try await add.execute(uri: "otpauth://totp/ACME:alice?secret=jbswy3dpehpk3pxp")
        #expect(account.issuer == "ACME")
        #expect(account.id.uuidString == "01010101-0101-4101-8101-010101010101")
        #expect(account.createdAt == Date(timeIntervalSince1970: 59))
        #expect(try await repository.list() == [account])
    }

    @Test("AddAccount of an account already there adds nothing and names the one there, unless a duplicate is allowed")
    func addDuplicate() async throws {
        let add = DefaultAddAccountUseCase(repository: repository, clock: clock, random: CountingRandomSource())
        let first = try await add.execute(uri: "otpauth://totp/ACME:alice?secret=jbswy3dpehpk3pxp")
        let error = await #expect(throws: DuplicateAccountError.self) {
            try await add.execute(uri: "otpauth://totp/Other:bob?secret=JBSWY3DPEHPK3PXP")
        }
        #expect(error?.existing == first)
        #expect(error?.description == "already there as ACME (alice) (id 01010101); nothing was added")
        #expect(try await repository.list() == [first])
        let twin = try await add.execute(
            KeyURI.parse("otpauth://totp/ACME:alice?secret=jbswy3dpehpk3pxp"), note: "", groups: [], allowDuplicate: true)
        #expect(try await repository.list() == [first, twin])
        // Another period is another account.
        _ = try await add.execute(uri: "otpauth://totp/ACME:alice?secret=jbswy3dpehpk3pxp&period=60")
        #expect(try await repository.list().count == 3)
    }

    @Test("AddAccount from fields reports the field at fault and stores nothing")
    func addFromDraft() async throws {
        let add = DefaultAddAccountUseCase(repository: repository, clock: clock, random: CountingRandomSource())
        await #expect(throws: AccountValidationError.invalidDigits(4)) {
            try await add.execute(draft: AccountDraft(issuer: "A", secret: "JBSWY3DPEHPK3PXP", digits: 4))
        }
        await #expect(throws: AccountValidationError.missingSecret) {
            try await add.execute(draft: AccountDraft(issuer: "A", secret: "  "))
        }
        await #expect(throws: AccountValidationError.invalidSecret(.invalidCharacter(position: 1))) {
            try await add.execute(draft: AccountDraft(issuer: "A", secret: "0BSWY3DP"))
        }
        #expect(try await repository.list().isEmpty)
        let hotp = try await add.execute(draft: AccountDraft(issuer: "A", secret: "JBSWY3DP", kind: .hotp, counter: 5))
        #expect(hotp.kind == .hotp(counter: 5))
    }

    @Test("ListAccounts puts favourites first and otherwise keeps the user's order")
    func listOrder() async throws {
        await repository.send([
            .stub(number: 1, issuer: "B"), .stub(number: 2, issuer: "A", isFavorite: true),
            .stub(number: 3, issuer: "C"), .stub(number: 4, issuer: "D", isFavorite: true),
        ])
        let issuers = try await DefaultListAccountsUseCase(repository: repository).execute().map(\.issuer)
        #expect(issuers == ["A", "D", "B", "C"])
    }

    @Test("ListAccounts groups the rest by their first group, ungrouped last")
    func listGroups() async throws {
        var work = Account.stub(number: 1, issuer: "W")
        work.groups = ["Work"]
        var bank = Account.stub(number: 2, issuer: "B")
        bank.groups = ["Banks"]
        await repository.send([Account.stub(number: 3, issuer: "None"), work, bank, .stub(number: 4, issuer: "Fav", isFavorite: true)])
        let issuers = try await DefaultListAccountsUseCase(repository: repository).execute().map(\.issuer)
        #expect(issuers == ["Fav", "B", "W", "None"])
    }

    @Test("ListAccounts keeps each part in the repository's order, on random lists")
    func listOrderRandom() {
        var random = SplitMix(seed: 0x11_57)
        for round in 0..<50 {
            let accounts = (0..<Int.random(in: 0...60, using: &random)).map { number -> Account in
                var account = Account.stub(
                    number: round * 100 + number, issuer: "I\(number)", isFavorite: Int.random(in: 0..<5, using: &random) == 0)
                let group = Int.random(in: 0..<4, using: &random)
                account.groups = group == 0 || round % 3 == 0 ? [] : ["G\(group)", "Other"]
                return account
            }
            // The rule as written: favourites, then each first group by name, then the rest.
            let rest = accounts.filter { !$0.isFavorite }
            var expected = accounts.filter(\.isFavorite)
            for group in Set(rest.compactMap(\.groups.first)).sorted() { expected += rest.filter { $0.groups.first == group } }
            expected += rest.filter(\.groups.isEmpty)
            #expect(DefaultListAccountsUseCase.ordered(accounts) == expected)
        }
    }

    @Test("SearchAccounts matches issuer, account and note, ignoring case and accents")
    func search() async throws {
        await repository.send([
            .stub(number: 1, issuer: "Crédit Agricole", name: "me"),
            .stub(number: 2, issuer: "GitHub", name: "octocat"),
            .stub(number: 3, issuer: "Work", name: "x", note: "VPN at Zürich office"),
        ])
        let search = DefaultSearchAccountsUseCase(listAccounts: DefaultListAccountsUseCase(repository: repository))
        #expect(try await search.execute(query: "credit").map(\.issuer) == ["Crédit Agricole"])
        #expect(try await search.execute(query: "OCTO").map(\.issuer) == ["GitHub"])
        #expect(try await search.execute(query: "zurich vpn").map(\.issuer) == ["Work"])
        #expect(try await search.execute(query: "").count == 3)
        #expect(try await search.execute(query: "nothing").isEmpty)
        // Each search sees the accounts as they are now.
        var renamed = try await repository.get(id: Account.stub(number: 2, issuer: "").id)
        renamed.issuer = "Gitea"
        try await repository.update(renamed)
        #expect(try await search.execute(query: "octo").map(\.issuer) == ["Gitea"])
        #expect(try await search.execute(query: "github").isEmpty)
    }

    @Test("UpdateAccount validates and stamps the update time")
    func update() async throws {
        let account = Account.stub()
        await repository.send([account])
        let update = DefaultUpdateAccountUseCase(repository: repository, clock: clock)
        var edited = account
        edited.note = "personal"
        let saved = try await update.execute(edited)
        #expect(saved.updatedAt == Date(timeIntervalSince1970: 59))
        #expect(try await repository.get(id: account.id).note == "personal")
        edited.digits = 3
        await #expect(throws: AccountValidationError.invalidDigits(3)) { try await update.execute(edited) }
        #expect(try await repository.get(id: account.id).digits == 6)
    }

    @Test("DeleteAccount removes the account; a missing one is reported")
    func delete() async throws {
        let account = Account.stub()
        await repository.send([account])
        let delete = DefaultDeleteAccountUseCase(repository: repository)
        try await delete.execute(id: account.id)
        #expect(try await repository.list().isEmpty)
        await #expect(throws: RepositoryError.notFound(account.id)) { try await delete.execute(id: account.id) }
    }

    @Test("GenerateCodes gives the code, seconds left and next code of a time step")
    func generateCodes() {
        let codes = DefaultGenerateCodesUseCase(hmac: RFC4226HMAC())
        let generated = codes.execute(for: Account.stub(), at: Date(timeIntervalSince1970: 59))
        #expect(generated.code == RFC4226HMAC.codes[1])
        #expect(generated.nextCode == RFC4226HMAC.codes[2])
        #expect(generated.secondsRemaining == 1)
        #expect(generated.period == 30)
        let atBoundary = codes.execute(for: Account.stub(), at: Date(timeIntervalSince1970: 60))
        #expect(atBoundary.code == RFC4226HMAC.codes[2])
        #expect(atBoundary.secondsRemaining == 30)
    }

    @Test("GenerateCodes follows the account: digits, period and step")
    func generateCodesFollowTheAccount() {
        let codes = DefaultGenerateCodesUseCase(hmac: RFC4226HMAC())
        var account = Account.stub()
        account.digits = 8
        #expect(codes.execute(for: account, at: Date(timeIntervalSince1970: 40)).code == "94287082")
        account.kind = .totp(period: 60)
        let longer = codes.execute(for: account, at: Date(timeIntervalSince1970: 40))
        #expect(longer.code == "84755224")
        #expect(longer.secondsRemaining == 20)
        #expect(longer.period == 60)
    }

    @Test("GenerateCodes prepares each account's key once for its two codes")
    func generateCodesPrepareOnce() {
        let hmac = CountingHMAC()
        _ = DefaultGenerateCodesUseCase(hmac: hmac).execute(
            for: [Account.stub(), Account.stub(number: 2, issuer: "B")], at: Date(timeIntervalSince1970: 31))
        #expect(hmac.counts == (keys: 2, codes: 4))
    }

    @Test("GenerateCodes leaves HOTP codes to be made on request")
    func generateCodesHOTP() {
        let generated = DefaultGenerateCodesUseCase(hmac: RFC4226HMAC())
            .execute(for: Account.stub(kind: .hotp(counter: 4)), at: Date(timeIntervalSince1970: 59))
        #expect(generated.code == nil)
        #expect(generated.counter == 4)
    }

    @Test("CurrentCode gives an HOTP account the code of its stored counter and moves the counter on")
    func currentCodeHOTP() async throws {
        let account = Account.stub(kind: .hotp(counter: 0))
        await repository.send([account])
        let current = DefaultCurrentCodeUseCase(repository: repository, hmac: RFC4226HMAC())
        let first = try await current.execute(for: account, at: Date(timeIntervalSince1970: 59))
        #expect(
            first == GeneratedCode(accountID: account.id, code: "755224", secondsRemaining: nil, period: nil, nextCode: nil, counter: 0))
        #expect(try await current.execute(for: account, at: Date(timeIntervalSince1970: 59)).code == "287082")
        #expect(try await repository.get(id: account.id).kind == .hotp(counter: 2))
    }

    @Test("CurrentCode gives a time-based account the code of the moment's step, and changes nothing")
    func currentCodeTOTP() async throws {
        let account = Account.stub()
        await repository.send([account])
        let current = DefaultCurrentCodeUseCase(repository: repository, hmac: RFC4226HMAC())
        let generated = try await current.execute(for: account, at: Date(timeIntervalSince1970: 59))
        #expect(generated.code == RFC4226HMAC.codes[1])
        #expect(generated.nextCode == RFC4226HMAC.codes[2])
        #expect(try await repository.list() == [account])
        let missing = Account.stub(id: Account.stub(number: 9, issuer: "").id, kind: .hotp(counter: 0))
        await #expect(throws: RepositoryError.notFound(Account.stub(number: 9, issuer: "").id)) {
            try await current.execute(for: missing, at: Date(timeIntervalSince1970: 59))
        }
    }

    @Test("a Key URI's code: its step's for TOTP, its own counter's for HOTP")
    func codeOfASpec() throws {
        let generator = OTPGenerator(hmac: RFC4226HMAC())
        let secret = RFC4226HMAC.secret
        let totp = try AccountSpec(issuer: "A", name: "b", secret: secret, kind: .totp(period: 30))
        #expect(generator.code(for: totp, at: Date(timeIntervalSince1970: 100)) == RFC4226HMAC.codes[3])
        let hotp = try AccountSpec(issuer: "A", name: "b", secret: secret, kind: .hotp(counter: 5))
        #expect(generator.code(for: hotp, at: Date(timeIntervalSince1970: 100)) == RFC4226HMAC.codes[5])
    }

    @Test("Secrets never show in descriptions")
    func secretRedacted() {
        let account = Account.stub(secret: Secret(bytes: Array("supersecretvalue".utf8)))
        #expect(!String(describing: account).contains(account.secret.base32))
        #expect(!String(reflecting: account).contains(account.secret.base32))
        #expect("\(account.secret)" == "Secret(redacted)")
    }
}

@Suite("Reordering")
struct MoveAccountUseCaseTests {
    @Test("moving swaps with the neighbour the user sees; past the ends nothing moves")
    func move() async throws {
        let repository = TestAccountRepository([
            .stub(number: 1, issuer: "A"), .stub(number: 2, issuer: "B"), .stub(number: 3, issuer: "C", isFavorite: true),
        ])
        let list = DefaultListAccountsUseCase(repository: repository)
        let move = DefaultMoveAccountUseCase(repository: repository, listAccounts: list)
        #expect(try await list.execute().map(\.issuer) == ["C", "A", "B"])
        try await move.execute(id: Account.stub(number: 2, issuer: "").id, offset: -1)
        #expect(try await list.execute().map(\.issuer) == ["C", "B", "A"])
        try await move.execute(id: Account.stub(number: 1, issuer: "").id, offset: 1)
        #expect(try await list.execute().map(\.issuer) == ["C", "B", "A"])
    }
}

@Suite("Query folding")
struct QueryFoldingTests {
    @Test("ASCII, folded byte by byte, folds exactly as Foundation folds it")
    func asciiMatchesFoundation() {
        let printable = String((0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) })
        #expect(
            AccountQuery.fold(printable)
                == printable.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil))
        #expect(AccountQuery.fold("GitHub Octo-Cat_42") == "github octo-cat_42")
    }

    @Test("text beyond ASCII loses case and accents")
    func beyondASCII() {
        #expect(AccountQuery.fold("Ünïcode Café") == "unicode cafe")
        #expect(AccountQuery("ÉXAMPLE bank").terms == ["example", "bank"])
    }

    @Test("the longest word, folded, is what every match holds; an empty query has none")
    func longestTerm() {
        #expect(AccountQuery("bank ÉXAMPLE me").longestTerm == Array("example".utf8))
        #expect(AccountQuery("  ").longestTerm == nil)
    }
}

/// RFC4226HMAC that counts the keys it prepares and the MACs it makes.
final class CountingHMAC: HMACProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var keys = 0
    private var macs = 0

    var counts: (keys: Int, codes: Int) { lock.withLock { (keys, macs) } }

    func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm) -> [UInt8] {
        lock.withLock { macs += 1 }
        return RFC4226HMAC().authenticationCode(for: message, key: key, algorithm: algorithm)
    }

    func counterMAC(key: [UInt8], algorithm: OTPAlgorithm) -> any CounterMAC {
        lock.withLock { keys += 1 }
        return Unprepared(counting: self).counterMAC(key: key, algorithm: algorithm)
    }

    /// The provider without its own `counterMAC`: the default CounterMAC, whose MACs it counts.
    private struct Unprepared: HMACProvider {
        let counting: CountingHMAC
        func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm) -> [UInt8] {
            counting.authenticationCode(for: message, key: key, algorithm: algorithm)
        }
    }
}
