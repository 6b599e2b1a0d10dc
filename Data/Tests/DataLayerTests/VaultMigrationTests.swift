import Domain
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// Vaults of formats 1 to 4 (committed, made by the last build of each) are migrated to the
/// current format in place, in one transaction, on their first unlock.
@Suite("Older vaults migrate on first unlock")
struct VaultMigrationTests {
    static let passphrase = "correct horse battery staple"
    let folder = try! VaultFolder()

    /// What Fixtures/README.md says the fixture holds.
    static func expectedAccounts() throws -> [Account] {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        func id(_ number: Int) -> UUID { UUID(uuidString: "00000000-0000-4000-8000-00000000000\(number)")! }
        return [
            Account(
                id: id(1), issuer: "Example", name: "alice@example.com", secret: Secret(bytes: try Base32.decode("JBSWY3DPEHPK3PXP")),
                kind: .totp(period: 30), note: "work laptop", groups: ["Work"], createdAt: date, updatedAt: date),
            Account(
                id: id(2), issuer: "Bank", name: "bob", secret: Secret(bytes: try Base32.decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")),
                kind: .hotp(counter: 7), algorithm: .sha256, digits: 8, groups: ["Money", "Home"], createdAt: date, updatedAt: date),
            Account(
                id: id(3), issuer: "Steam", name: "gamer", secret: Secret(bytes: try Base32.decode("ONSWG4TFOQ======")), kind: .steam,
                createdAt: date, updatedAt: date),
        ]
    }

    func copyFixture(format: Int = 1) throws {
        let fixture = try #require(
            Bundle.module.url(forResource: "vault-format\(format)", withExtension: "sqlite", subdirectory: "Fixtures"))
        try FileManager.default.createDirectory(at: folder.directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: folder.path))
    }

    func format() throws -> Int { try folder.rows("SELECT format_version FROM header")[0]["format_version"] }

    @Test(
        "each fixture opens with every account, in the current format, with a new vault's schema; the next unlock writes nothing",
        arguments: [1, 2, 3, 4])
    func migrates(from version: Int) async throws {
        try copyFixture(format: version)
        #expect(try format() == version)
        let vault = try Vault.open(at: folder.path, passphrase: Passphrase(Self.passphrase))
        #expect(try await VaultAccountDataSource(vault: vault).fetchAll() == Self.expectedAccounts())
        try vault.close()
        #expect(try format() == VaultHeader.currentFormat)
        #expect(try folder.rows("SELECT revision FROM header")[0]["revision"] as Int == version)
        #expect(try folder.rows("SELECT version FROM entry").map { $0["version"] as Int } == [1, 1, 1])
        let schema = try folder.read(VaultSchema.objects)
        let fresh = try VaultFolder()
        _ = try fresh.create()
        #expect(try fresh.read(VaultSchema.objects) == schema)

        let before = try folder.snapshot()
        let again = try Vault.open(at: folder.path, passphrase: Passphrase(Self.passphrase))
        #expect(try await VaultAccountDataSource(vault: again).fetchAll().count == 3)
        try again.close()
        #expect(try folder.snapshot() == before)
    }

    @Test("a migration interrupted after some entries leaves the format-1 vault as it was; the next unlock migrates it")
    func interrupted() async throws {
        struct Interrupted: Error {}
        try copyFixture()
        let before = try folder.snapshot()
        #expect(throws: Interrupted.self) {
            try Vault.open(at: folder.path, passphrase: Passphrase(Self.passphrase)) { if $0 == 1 { throw Interrupted() } }
        }
        #expect(try folder.snapshot() == before)
        #expect(try format() == 1)
        let vault = try Vault.open(at: folder.path, passphrase: Passphrase(Self.passphrase))
        #expect(try await VaultAccountDataSource(vault: vault).fetchAll() == Self.expectedAccounts())
        #expect(try format() == VaultHeader.currentFormat)
    }

    @Test("a wrong passphrase, or a damaged format-1 entry, migrates nothing and changes nothing")
    func failuresLeaveFormat1() async throws {
        try copyFixture()
        try await folder.expectFailure(.wrongPassphrase, passphrase: "wrong")
        try folder.tamper("UPDATE entry SET ciphertext = zeroblob(length(ciphertext)) WHERE sort_order = 2")
        try await folder.expectFailure(.entryDamaged(id: "00000000-0000-4000-8000-000000000003"), passphrase: Self.passphrase)
        #expect(try format() == 1)
    }

    @Test("a format-2, -3 or -4 vault changed outside Tokens is refused, not sealed as it is by the migration", arguments: [2, 3, 4])
    func changedBeforeMigration(format version: Int) async throws {
        try copyFixture(format: version)
        try folder.tamper("UPDATE entry SET sort_order = 9 WHERE sort_order = 0")
        try await folder.expectFailure(.modified(.entries), passphrase: Self.passphrase)
        #expect(try format() == version)
    }

    @Test("a planted trigger in a format-1 vault is refused before the migration")
    func foreignSchemaInFormat1() async throws {
        try copyFixture()
        try folder.tamper("CREATE TRIGGER freeze BEFORE UPDATE ON entry BEGIN SELECT RAISE(IGNORE); END")
        try await folder.expectFailure(.modified(.foreignSchema(kind: "trigger", name: "freeze")), passphrase: Self.passphrase)
    }
}

/// The schema check's fast path: the digests it compares are those of what the migrations make.
@Suite("Vault schema digests")
struct VaultSchemaDigestTests {
    @Test("each format's digest is that of its migrations' objects", arguments: [1, 2, 3, 4, 5])
    func digests(format: Int) throws {
        let database = try #require(VaultSchema.migrated(format: format))
        let digest = try database.read(VaultSchema.digest)
        #expect(digest == VaultSchema.expectedDigests[format], "format \(format): \(digest)")
    }

    @Test("every format this build reads has a digest, and none other")
    func everyFormat() {
        #expect(Set(VaultSchema.expectedDigests.keys) == Set(1...VaultHeader.currentFormat))
        #expect(VaultSchema.expected(format: VaultHeader.currentFormat + 1) == nil)
    }
}
