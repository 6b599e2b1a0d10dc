import Domain
import DomainTestSupport
import Foundation
import Testing

@testable import DataLayer

/// One contract for every AccountRepository: the in-memory store (DEV), the vault (ALPHA and
/// REAL) and the fake the other layers' tests use (DomainTestSupport's TestAccountRepository).
/// A fake that passes it behaves like the real thing, so tests that lean on it mean something.
@Suite("AccountRepository contract")
struct AccountRepositoryContractTests {
    /// One implementation under test, with the folder that holds its vault (if any) alive.
    struct Subject: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable () throws -> (repository: any AccountRepository, keepAlive: VaultFolder?)
        var testDescription: String { name }
    }

    static let subjects: [Subject] = [
        Subject(name: "in-memory store") { (DefaultAccountRepository(dataSource: InMemoryAccountDataSource(accounts: [])), nil) },
        Subject(name: "vault") {
            let folder = try VaultFolder()
            return (DefaultAccountRepository(dataSource: VaultAccountDataSource(vault: try folder.create())), folder)
        },
        Subject(name: "test fake") { (TestAccountRepository(), nil) },
    ]

    static func account(_ number: Int, kind: OTPKind = .totp(period: 30)) -> Account { VaultFolder.account(number, kind: kind) }

    @Test("lists in the order added; get, update and delete act on one account", arguments: subjects)
    func basics(_ subject: Subject) async throws {
        let (repository, folder) = try subject.make()
        defer { withExtendedLifetime(folder) {} }
        try await repository.add(Self.account(1))
        try await repository.add(contentsOf: [Self.account(2), Self.account(3)])
        #expect(try await repository.list().map(\.id) == [1, 2, 3].map { Self.account($0).id })
        var edited = try await repository.get(id: Self.account(2).id)
        edited.note = "edited"
        try await repository.update(edited)
        #expect(try await repository.get(id: edited.id) == edited)
        try await repository.delete(id: Self.account(1).id)
        #expect(try await repository.list().map(\.id) == [2, 3].map { Self.account($0).id })
    }

    @Test(
        "every field of the fully populated account comes back as it went in: add, and update to other values of each", arguments: subjects)
    func everyField(_ subject: Subject) async throws {
        let (repository, folder) = try subject.make()
        defer { withExtendedLifetime(folder) {} }
        try await repository.add(Account.fullyPopulated)
        #expect(try await repository.get(id: Account.fullyPopulated.id) == Account.fullyPopulated)
        let changed = Self.everyFieldChanged
        try await repository.update(changed)
        #expect(try await repository.get(id: changed.id) == changed)
        #expect(try await repository.list() == [changed])
    }

    @Test("the vault: every field of the fully populated account, after closing and opening it again")
    func everyFieldAfterReopening() async throws {
        let folder = try VaultFolder()
        let vault = try folder.create()
        try await DefaultAccountRepository(dataSource: VaultAccountDataSource(vault: vault)).add(Account.fullyPopulated)
        try vault.close()
        let reopened = DefaultAccountRepository(
            dataSource: VaultAccountDataSource(vault: try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))))
        #expect(try await reopened.list() == [Account.fullyPopulated])
    }

    /// The fully populated account with every field but its id and creation date changed.
    static let everyFieldChanged: Account = {
        var account = Account.fullyPopulated
        account.issuer = "Changed Issuer"
        account.name = "changed@example.com"
        account.secret = Secret(bytes: Array("another secret, longer".utf8))
        account.kind = .totp(period: 60)
        account.algorithm = .sha256
        account.digits = 7
        account.note = "changed note"
        account.isFavorite = false
        account.groups = ["changed"]
        account.updatedAt = Date(timeIntervalSince1970: 1_700_009_999)
        return account
    }()

    @Test("a search answers the list filtered by its query, in the list's order, after every kind of change", arguments: subjects)
    func search(_ subject: Subject) async throws {
        let (repository, folder) = try subject.make()
        defer { withExtendedLifetime(folder) {} }
        var accents = Self.account(4)
        accents.issuer = "Ünïcode Bank"
        try await repository.add(contentsOf: [Self.account(1), Self.account(2), Self.account(3), accents])
        var renamed = try await repository.get(id: Self.account(2).id)
        renamed.name = "renamed"
        try await repository.update(renamed)
        try await repository.delete(id: Self.account(3).id)
        try await repository.reorder([accents.id])
        for text in ["user", "USER1", "renamed", "user2", "unicode", "bank", "issuer 1", "nothing", "3"] {
            let query = AccountQuery(text)
            let expected = try await repository.list().filter(query.matches)
            #expect(try await repository.search(query) == expected, "\(text)")
        }
        #expect(try await repository.search(AccountQuery("unicode")).map(\.id) == [accents.id])
    }

    @Test("an id lookup answers the list filtered by the id prefix, in the list's order, after every kind of change", arguments: subjects)
    func idPrefix(_ subject: Subject) async throws {
        let (repository, folder) = try subject.make()
        defer { withExtendedLifetime(folder) {} }
        try await repository.add(contentsOf: (1...12).map { Self.account($0) })
        try await repository.delete(id: Self.account(3).id)
        try await repository.reorder([Self.account(12).id])
        let texts = [
            "0000", "00000000-0000-4000-8000-00000000000", Self.account(11).id.uuidString, Self.account(3).id.uuidString.lowercased(),
            "ffff",
        ]
        for text in texts {
            let prefix = try #require(AccountIDPrefix(text))
            let expected = try await repository.list().filter { prefix.matches($0.id) }
            #expect(try await repository.accounts(idPrefix: prefix) == expected, "\(text)")
        }
        #expect(try await repository.accounts(idPrefix: #require(AccountIDPrefix("0000"))).count == 11)
    }

    @Test("reorder puts the given ids first, the rest after in their order; unknown ids are ignored", arguments: subjects)
    func reorder(_ subject: Subject) async throws {
        let (repository, folder) = try subject.make()
        defer { withExtendedLifetime(folder) {} }
        try await repository.add(contentsOf: (1...5).map { Self.account($0) })
        try await repository.reorder([4, 2, 9].map { Self.account($0).id })
        #expect(try await repository.list().map(\.id) == [4, 2, 1, 3, 5].map { Self.account($0).id })
    }

    @Test("the revision moves with every change and only then", arguments: subjects)
    func revisions(_ subject: Subject) async throws {
        let (repository, folder) = try subject.make()
        defer { withExtendedLifetime(folder) {} }
        var seen = [try await repository.revision()]
        func expectMoved(_ change: String) async throws {
            let revision = try await repository.revision()
            #expect(!seen.contains(revision), "\(change) did not move the revision")
            seen.append(revision)
        }
        try await repository.add(Self.account(1, kind: .hotp(counter: 0)))
        try await expectMoved("add")
        _ = try await repository.list()
        _ = try await repository.get(id: Self.account(1).id)
        #expect(try await repository.revision() == seen.last, "reading moved the revision")
        _ = try await repository.advanceCounter(id: Self.account(1).id)
        try await expectMoved("advanceCounter")
        try await repository.add(contentsOf: [Self.account(2)])
        try await expectMoved("add(contentsOf:)")
        try await repository.reorder([Self.account(2).id])
        try await expectMoved("reorder")
        try await repository.delete(id: Self.account(2).id)
        try await expectMoved("delete")
    }

    @Test("advancing an HOTP counter hands out each counter once, even when asked at the same time", arguments: subjects)
    func advanceCounter(_ subject: Subject) async throws {
        let (repository, folder) = try subject.make()
        defer { withExtendedLifetime(folder) {} }
        let hotp = Self.account(1, kind: .hotp(counter: 10))
        try await repository.add(hotp)
        let counters = try await withThrowingTaskGroup(of: UInt64?.self) { group in
            for _ in 0..<20 { group.addTask { try await repository.advanceCounter(id: hotp.id).counter } }
            return try await group.reduce(into: [UInt64]()) { $0.append($1 ?? .max) }
        }
        #expect(counters.sorted() == Array(10..<30))
        #expect(try await repository.get(id: hotp.id).kind == .hotp(counter: 30))
        try await repository.add(Self.account(2))
        await #expect(throws: RepositoryError.notCounterBased(Self.account(2).id)) {
            try await repository.advanceCounter(id: Self.account(2).id)
        }
    }

    @Test("the same errors everywhere; an operation on a missing account changes nothing; a failed batch adds nothing", arguments: subjects)
    func errors(_ subject: Subject) async throws {
        let (repository, folder) = try subject.make()
        defer { withExtendedLifetime(folder) {} }
        try await repository.add(Self.account(1))
        let revision = try await repository.revision()
        let missing = Self.account(9)
        await #expect(throws: RepositoryError.notFound(missing.id)) { try await repository.get(id: missing.id) }
        await #expect(throws: RepositoryError.notFound(missing.id)) { try await repository.update(missing) }
        await #expect(throws: RepositoryError.notFound(missing.id)) { try await repository.delete(id: missing.id) }
        await #expect(throws: RepositoryError.notFound(missing.id)) { try await repository.advanceCounter(id: missing.id) }
        await #expect(throws: RepositoryError.duplicateID(Self.account(1).id)) { try await repository.add(Self.account(1)) }
        #expect(try await repository.revision() == revision)
        await #expect(throws: RepositoryError.duplicateID(Self.account(1).id)) {
            try await repository.add(contentsOf: [Self.account(2), Self.account(1)])
        }
        #expect(try await repository.list().map(\.id) == [Self.account(1).id])
    }
}
