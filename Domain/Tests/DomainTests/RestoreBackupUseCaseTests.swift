import Domain
import DomainTestSupport
import Foundation
import Testing

@Suite("Restore a backup")
struct RestoreBackupUseCaseTests {
    let repository = TestAccountRepository()
    var restore: DefaultRestoreBackupUseCase { DefaultRestoreBackupUseCase(repository: repository) }

    static func account(_ number: Int, _ issuer: String, updated: TimeInterval = 1_600_000_000, kind: OTPKind = .totp(period: 30))
        -> Account
    {
        .stub(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!, issuer: issuer,
            secret: Secret(bytes: [UInt8(number)]), kind: kind, updatedAt: Date(timeIntervalSince1970: updated))
    }

    @Test("what is gone comes back with its id; what is here as in the backup is left; what only this vault has is kept")
    func bringsBackWhatIsGone() async throws {
        try await repository.add(contentsOf: [Self.account(1, "Kept"), Self.account(3, "Only here")])
        let backup = [Self.account(1, "Kept"), Self.account(2, "Deleted since")]
        let plan = try await restore.plan(restoring: backup)
        #expect(plan.added.map(\.issuer) == ["Deleted since"])
        #expect(plan.unchanged == 1 && plan.onlyHere == 1 && plan.updated.isEmpty && plan.keptNewer.isEmpty)
        #expect(try await repository.list().map(\.issuer) == ["Kept", "Only here"], "a plan writes nothing")
        try await restore.apply(plan)
        let after = try await repository.list()
        #expect(after.map(\.issuer) == ["Kept", "Only here", "Deleted since"])
        #expect(after.last?.id == backup[1].id)
    }

    @Test("an edit made here after the backup is kept; a newer edit in the backup is taken, its HOTP counter never lowered")
    func newerEditWins() async throws {
        try await repository.add(contentsOf: [
            Self.account(1, "Renamed here", updated: 2_000), Self.account(2, "Old here", updated: 1_000, kind: .hotp(counter: 9)),
        ])
        let backup = [
            Self.account(1, "As backed up", updated: 1_000), Self.account(2, "Newer in backup", updated: 2_000, kind: .hotp(counter: 4)),
        ]
        let plan = try await restore.plan(restoring: backup)
        #expect(plan.keptNewer.map(\.issuer) == ["Renamed here"])
        #expect(plan.updated.map(\.issuer) == ["Newer in backup"])
        try await restore.apply(plan)
        let after = try await repository.list()
        #expect(after.map(\.issuer) == ["Renamed here", "Newer in backup"])
        #expect(after[1].kind == .hotp(counter: 9))
    }

    @Test("an account kept here under another id is a duplicate, not added twice; nor is an id the backup names twice")
    func duplicates() async throws {
        try await repository.add(Self.account(1, "Here"))
        var sameSecret = Self.account(5, "Same secret, other id")
        sameSecret.secret = Secret(bytes: [1])
        let plan = try await restore.plan(restoring: [sameSecret, Self.account(2, "New"), Self.account(2, "New, twice")])
        #expect(plan.duplicates.map(\.issuer) == ["Same secret, other id"])
        #expect(plan.added.map(\.issuer) == ["New"])
        #expect(!plan.changesNothing)
    }

    @Test("a backup of the vault as it is changes nothing")
    func nothingToDo() async throws {
        try await repository.add(Self.account(1, "Here"))
        let plan = try await restore.plan(restoring: [Self.account(1, "Here")])
        #expect(plan.changesNothing && plan.unchanged == 1)
    }
}
