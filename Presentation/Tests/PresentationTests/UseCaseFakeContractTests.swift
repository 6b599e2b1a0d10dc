import Domain
import DomainTestSupport
import Foundation
import PresentationTestSupport
import Testing

/// The use-case fakes Presentation's tests lean on (PresentationTestSupport), held to what the
/// real use cases do (Domain's `Default…` over the repository fake, itself held to the real
/// stores by Data's AccountRepository contract): the same accounts kept, the same refusals, the
/// same order after a move. A fake that drifts fails here, not in a screen test that trusted it.
@Suite("Use-case fakes keep the real use cases' contract")
struct UseCaseFakeContractTests {
    /// One implementation of the use cases over `accounts`, and what it holds afterwards.
    struct Subject: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable ([Account]) -> UseCases
        var testDescription: String { name }
    }

    struct UseCases {
        let update: any UpdateAccountUseCase
        let delete: any DeleteAccountUseCase
        let move: any MoveAccountUseCase
        let stored: @Sendable () async throws -> [Account]
    }

    static let subjects = [
        Subject(name: "fakes") { accounts in
            let search = TestSearchAccountsUseCase(accounts)
            return UseCases(
                update: TestUpdateAccountUseCase(search: search), delete: TestDeleteAccountUseCase(search: search),
                move: TestMoveAccountUseCase(search: search), stored: { search.all })
        },
        Subject(name: "real use cases") { accounts in
            let repository = TestAccountRepository(accounts)
            return UseCases(
                update: DefaultUpdateAccountUseCase(repository: repository, clock: FixedClock()),
                delete: DefaultDeleteAccountUseCase(repository: repository),
                move: DefaultMoveAccountUseCase(repository: repository, listAccounts: DefaultListAccountsUseCase(repository: repository)),
                stored: { try await repository.list() })
        },
    ]

    static let accounts = [Account.row(1, issuer: "GitHub"), Account.row(2, issuer: "Bank"), Account.row(3, issuer: "Mail")]

    /// The accounts without their modification dates (the real use case stamps its clock's).
    static func content(_ accounts: [Account]) -> [Account] {
        accounts.map { account in
            var account = account
            account.updatedAt = .distantPast
            return account
        }
    }

    /// The error a call throws, as text (nil when it succeeds).
    static func failure(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch { return "\(error)" }
    }

    @Test("update: every field of the fully populated account kept; issuer and name trimmed as Domain's spec does", arguments: subjects)
    func update(_ subject: Subject) async throws {
        let cases = subject.make([Account.fullyPopulated])
        var edited = Account.fullyPopulated
        edited.issuer = "  Trimmed  "
        let saved = try await cases.update.execute(edited)
        #expect(saved.issuer == "Trimmed")
        var expected = Account.fullyPopulated
        expected.issuer = "Trimmed"
        #expect(Self.content(try await cases.stored()) == Self.content([expected]))
        #expect(Self.content([saved]) == Self.content([expected]))
    }

    @Test(
        "update refuses what Domain refuses, with its message, and keeps nothing of it",
        arguments: subjects)
    func updateRefusals(_ subject: Subject) async throws {
        let cases = subject.make(Self.accounts)
        var nameless = Self.accounts[0]
        (nameless.issuer, nameless.name) = ("", " ")
        var escaped = Self.accounts[0]
        escaped.note = "look \u{1B}]52;c;aGk=\u{07}"
        var grouped = Self.accounts[0]
        grouped.groups = ["\u{202E}evil"]
        var found: [String?] = []
        for account in [nameless, escaped, grouped] { found.append(await Self.failure { _ = try await cases.update.execute(account) }) }
        #expect(
            found == [
                "account: an issuer or an account name is required",
                await Self.failure { try AccountText.validate(note: escaped.note, groups: []) },
                await Self.failure { try AccountText.validate(note: "", groups: grouped.groups) },
            ])
        #expect(found.allSatisfy { $0 != nil })
        #expect(try await cases.stored() == Self.accounts)
    }

    @Test("delete removes one account; an unknown one is not found", arguments: subjects)
    func delete(_ subject: Subject) async throws {
        let cases = subject.make(Self.accounts)
        try await cases.delete.execute(id: Self.accounts[1].id)
        #expect(try await cases.stored().map(\.id) == [Self.accounts[0].id, Self.accounts[2].id])
        let missing = UUID(uuidString: "00000000-0000-4000-8000-999999999999")!
        #expect(await Self.failure { try await cases.delete.execute(id: missing) } == "\(RepositoryError.notFound(missing))")
    }

    @Test("move: one place up or down, nothing past either end, nothing for an unknown account", arguments: subjects)
    func move(_ subject: Subject) async throws {
        let cases = subject.make(Self.accounts)
        let ids = Self.accounts.map(\.id)
        try await cases.move.execute(id: ids[2], offset: -1)
        #expect(try await cases.stored().map(\.id) == [ids[0], ids[2], ids[1]])
        try await cases.move.execute(id: ids[0], offset: -1)
        try await cases.move.execute(id: ids[1], offset: 1)
        #expect(try await cases.stored().map(\.id) == [ids[0], ids[2], ids[1]])
        try await cases.move.execute(id: UUID(uuidString: "00000000-0000-4000-8000-999999999999")!, offset: 1)
        #expect(try await cases.stored().map(\.id) == [ids[0], ids[2], ids[1]])
    }
}
