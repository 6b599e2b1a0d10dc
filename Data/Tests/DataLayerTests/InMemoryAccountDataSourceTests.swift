import DataLayer
import Domain
import Foundation
import Testing

@Suite("In-memory store and repository")
struct InMemoryAccountStoreTests {
    static func account(_ number: Int, kind: OTPKind = .totp(period: 30)) -> Account {
        Account(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!, issuer: "I\(number)",
            name: "n", secret: Secret(bytes: [1, 2, 3]), kind: kind, createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0))
    }

    let repository = DefaultAccountRepository(dataSource: InMemoryAccountDataSource())

    @Test("add, get, update and delete behave as the port says")
    func crud() async throws {
        var account = Self.account(1)
        try await repository.add(account)
        await #expect(throws: RepositoryError.duplicateID(account.id)) { try await repository.add(account) }
        account.note = "changed"
        try await repository.update(account)
        #expect(try await repository.get(id: account.id).note == "changed")
        try await repository.delete(id: account.id)
        await #expect(throws: RepositoryError.notFound(account.id)) { try await repository.get(id: account.id) }
        await #expect(throws: RepositoryError.notFound(account.id)) { try await repository.update(account) }
        await #expect(throws: RepositoryError.notFound(account.id)) { try await repository.delete(id: account.id) }
    }

    @Test("a thousand concurrent adds are all kept")
    func concurrentAdds() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<1000 {
                group.addTask { try await repository.add(Self.account(number)) }
            }
            try await group.waitForAll()
        }
        #expect(Set(try await repository.list().map(\.id)).count == 1000)
    }

    @Test("concurrent HOTP advances hand out every counter exactly once")
    func concurrentAdvances() async throws {
        let account = Self.account(1, kind: .hotp(counter: 0))
        try await repository.add(account)
        let counters = try await withThrowingTaskGroup(of: UInt64?.self) { group in
            for _ in 0..<200 {
                group.addTask { try await repository.advanceCounter(id: account.id).counter }
            }
            return try await group.reduce(into: [UInt64]()) { $0.append($1!) }
        }
        #expect(Set(counters) == Set(0..<200))
        #expect(try await repository.get(id: account.id).kind == .hotp(counter: 200))
        await #expect(throws: RepositoryError.notCounterBased(Self.account(2).id)) {
            try await repository.add(Self.account(2))
            return try await repository.advanceCounter(id: Self.account(2).id)
        }
    }

    @Test("an HOTP counter at its maximum is an error, not a wrap to 0, and stays where it was")
    func counterAtMaximum() async throws {
        let account = Self.account(1, kind: .hotp(counter: .max))
        try await repository.add(account)
        await #expect(throws: AccountValidationError.counterExhausted) { try await repository.advanceCounter(id: account.id) }
        #expect(try await repository.get(id: account.id).kind == .hotp(counter: .max))
    }

    @Test("demo accounts: Google, GitHub, Amazon, one HOTP and one Steam, all valid")
    func demoAccounts() throws {
        let accounts = DemoAccounts.all
        #expect(accounts.map(\.issuer).starts(with: ["Google", "GitHub", "Amazon"]))
        #expect(accounts.contains { $0.counter != nil })
        #expect(accounts.contains { $0.kind == .steam })
        #expect(Set(accounts.map(\.id)).count == accounts.count)
        for account in accounts { _ = try account.spec }
    }
}
