import Domain
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// `tokens backup`'s copies: written whole from a consistent snapshot, checked before they
/// count, never over another file; a copy that fails its check is removed. Checking a backup
/// writes nothing to it.
@Suite("Vault backups")
struct VaultBackupTests {
    let folder = try! VaultFolder()
    var backups: String { folder.directory.deletingLastPathComponent().appendingPathComponent("backups").path }

    /// A vault with three accounts, left open.
    func filledVault() async throws -> UnlockedVault {
        let vault = try folder.create()
        try await VaultAccountDataSource(vault: vault).insertAll((1...3).map { VaultFolder.account($0) })
        return vault
    }

    /// Changes the file at `path` with raw SQL, as another program or a bad disk would.
    static func change(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }

    /// Whether `error` says the copy for `path` failed its check, for a reason `matches` accepts.
    static func isUnverified(_ error: any Error, path: String, _ matches: (String) -> Bool) -> Bool {
        guard case VaultError.backupUnverified(path, let reason) = error else { return false }
        return matches(reason)
    }

    /// The files in the backups folder.
    func backupFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
    }

    @Test("a backup holds every account, opens with the vault's passphrase, is 0600 in a 0700 folder, and leaves no other file")
    func writesAndOpens() async throws {
        let vault = try await filledVault()
        defer { try? vault.close() }
        let expected = try await VaultAccountDataSource(vault: vault).fetchAll()
        let path = backups + "/vault-1.sqlite"
        let report = try vault.backUp(to: path)
        #expect(report.path == path && report.accounts == 3 && report.bytes > 0)
        #expect(try backupFiles() == ["vault-1.sqlite"])
        let folderMode = try FileManager.default.attributesOfItem(atPath: backups)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700 && fileMode == 0o600)
        let copy = try Vault.open(at: path, passphrase: Passphrase("correct horse"))
        defer { try? copy.close() }
        #expect(try await VaultAccountDataSource(vault: copy).fetchAll() == expected)
    }

    @Test("a backup never replaces a file: the second one to the same name is refused and the first is unchanged")
    func refusesExisting() async throws {
        let vault = try await filledVault()
        defer { try? vault.close() }
        let path = backups + "/vault-1.sqlite"
        _ = try vault.backUp(to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try await VaultAccountDataSource(vault: vault).insert(VaultFolder.account(4))
        #expect(throws: VaultError.backupExists(path: path)) { try vault.backUp(to: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try backupFiles() == ["vault-1.sqlite"])
    }

    @Test("a copy damaged before its check is removed, the command fails, and the vault is as it was")
    func damagedCopyRemoved() async throws {
        let vault = try await filledVault()
        defer { try? vault.close() }
        let path = backups + "/vault-1.sqlite"
        let accounts = try await VaultAccountDataSource(vault: vault).fetchAll()
        #expect {
            _ = try vault.backUp(to: path) { copy in
                try Self.change(copy, "DELETE FROM entry WHERE rowid = (SELECT min(rowid) FROM entry)")
            }
        } throws: { error in Self.isUnverified(error, path: path) { $0 == VaultModification.entries.description } }
        #expect(try backupFiles() == [])
        #expect(try await VaultAccountDataSource(vault: vault).fetchAll() == accounts)
    }

    @Test("verify: a good backup gives its accounts and size and is not written to; a wrong passphrase is told as such")
    func verifies() async throws {
        let vault = try await filledVault()
        let path = backups + "/vault-1.sqlite"
        let written = try vault.backUp(to: path)
        try vault.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try VaultBackup.verify(at: path, passphrase: Passphrase("correct horse")) == written)
        #expect(throws: VaultError.wrongPassphrase) { try VaultBackup.verify(at: path, passphrase: Passphrase("wrong")) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try backupFiles() == ["vault-1.sqlite"])
    }

    @Test("verify: a backup with an entry changed outside Tokens, a truncated one and a missing one each fail with one reason")
    func verifyFindsDamage() async throws {
        let vault = try await filledVault()
        let path = backups + "/vault-1.sqlite"
        _ = try vault.backUp(to: path)
        try vault.close()
        let passphrase = Passphrase("correct horse")
        try Self.change(path, "UPDATE entry SET version = version + 1")
        #expect(throws: VaultError.backupDamaged(path: path, reason: VaultModification.entries.description)) {
            try VaultBackup.verify(at: path, passphrase: passphrase)
        }
        let truncated = backups + "/truncated.sqlite"
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(50)).write(to: URL(fileURLWithPath: truncated))
        #expect(throws: VaultError.backupDamaged(path: truncated, reason: "the file is truncated")) {
            try VaultBackup.verify(at: truncated, passphrase: passphrase)
        }
        let missing = backups + "/missing.sqlite"
        #expect(throws: VaultError.notInitialized(path: missing)) { try VaultBackup.verify(at: missing, passphrase: passphrase) }
    }

    @Test("verify: a backup in an older format is checked on a private copy; the file stays as it was, unmigrated")
    func verifiesOlderFormat() throws {
        let fixture = try #require(Bundle.module.url(forResource: "vault-format1", withExtension: "sqlite", subdirectory: "Fixtures"))
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        let path = backups + "/old.sqlite"
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = try VaultBackup.verify(at: path, passphrase: Passphrase(VaultMigrationTests.passphrase))
        #expect(report.accounts == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try backupFiles() == ["old.sqlite"])
    }

    @Test("a copy that cannot be written is a backup error naming the copy, not a damaged vault")
    func unwritableCopy() async throws {
        let vault = try await filledVault()
        defer { try? vault.close() }
        let path = backups + "/vault-1.sqlite"
        // A folder where the copy is written first: SQLite cannot open it, as on a full or read-only disk.
        try FileManager.default.createDirectory(atPath: path + ".writing-\(getpid())", withIntermediateDirectories: true)
        #expect {
            _ = try vault.backUp(to: path)
        } throws: { error in Self.isUnverified(error, path: path) { $0.hasPrefix("it could not be written: ") } }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a backup's accounts read with the vault's key; after a passphrase change only the old passphrase opens it; nothing is written")
    func readsAccounts() async throws {
        let vault = try await filledVault()
        defer { try? vault.close() }
        let expected = try await VaultAccountDataSource(vault: vault).fetchAll()
        let path = backups + "/vault-1.sqlite"
        _ = try vault.backUp(to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try vault.readBackup(at: path) == expected)
        try vault.changePassphrase(to: Passphrase("new passphrase"), kdf: VaultFolder.fastKDF)
        #expect(throws: VaultError.backupOtherKey(path: path)) { try vault.readBackup(at: path) }
        #expect(try VaultBackup.read(at: path, passphrase: Passphrase("correct horse")) == expected)
        #expect(throws: VaultError.wrongPassphrase) { try VaultBackup.read(at: path, passphrase: Passphrase("new passphrase")) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a damaged backup read with the vault's key is a damaged backup, not a wrong key")
    func readsDamaged() async throws {
        let vault = try await filledVault()
        defer { try? vault.close() }
        let path = backups + "/vault-1.sqlite"
        _ = try vault.backUp(to: path)
        try Self.change(path, "DELETE FROM entry WHERE rowid = (SELECT min(rowid) FROM entry)")
        #expect {
            _ = try vault.readBackup(at: path)
        } throws: { error in
            guard case VaultError.backupDamaged(path, _) = error else { return false }
            return true
        }
    }

    @Test(
        "a copy holds the vault as it is until the vault changes; another vault's, an older key's, a missing file and not a vault never do")
    func currentCopy() async throws {
        let vault = try await filledVault()
        defer { try? vault.close() }
        let path = backups + "/vault-1.sqlite"
        _ = try vault.backUp(to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(vault.isCurrent(backupAt: path))
        #expect(try backupFiles() == ["vault-1.sqlite"], "reading the copy's header leaves no file beside it")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        try await VaultAccountDataSource(vault: vault).insert(VaultFolder.account(4))
        #expect(!vault.isCurrent(backupAt: path))
        let second = backups + "/vault-2.sqlite"
        _ = try vault.backUp(to: second)
        #expect(vault.isCurrent(backupAt: second))
        try vault.changePassphrase(to: Passphrase("new passphrase"), kdf: VaultFolder.fastKDF)
        #expect(!vault.isCurrent(backupAt: second), "a copy under the old passphrase no longer holds the vault")

        let otherFolder = try VaultFolder()
        let other = try otherFolder.create()
        defer { try? other.close() }
        let others = backups + "/vault-other.sqlite"
        _ = try other.backUp(to: others)
        #expect(other.isCurrent(backupAt: others) && !vault.isCurrent(backupAt: others))
        #expect(!vault.isCurrent(backupAt: backups + "/missing.sqlite"))
        let garbage = backups + "/garbage.sqlite"
        try Data("not a vault".utf8).write(to: URL(fileURLWithPath: garbage))
        #expect(!vault.isCurrent(backupAt: garbage))
    }
}
