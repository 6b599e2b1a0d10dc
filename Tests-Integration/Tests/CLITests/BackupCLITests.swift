import Foundation
import IntegrationTestSupport
import Testing

/// `tokens backup` through the binary: a checked copy beside the vault or where `--to` says,
/// `backup verify` on a good, a damaged and a missing copy, each failure one line and its status.
@Suite("Backups through the binary")
struct BackupCLITests {
    /// The path `backup` printed: between " to " and " (".
    static func writtenPath(_ stdout: String) -> String? {
        guard let start = stdout.range(of: " to "), let end = stdout.range(of: " (", range: start.upperBound..<stdout.endIndex)
        else { return nil }
        return String(stdout[start.upperBound..<end.lowerBound])
    }

    /// The passphrase, and no automatic copies: each test here counts the copies it makes.
    static let unlock = Vaults.environment().merging(["TOKENS_BACKUP_AUTO": "0"]) { $1 }

    @Test("backup writes a 0600 copy into backups beside the vault; verify checks it; --to writes elsewhere")
    func writesAndVerifies() throws {
        let home = try TemporaryHome()
        let unlock = Self.unlock
        _ = try TokensProcess.run(["init"], home: home.url, environment: unlock)
        for number in 1...2 {
            let added = try TokensProcess.run(
                ["add", Vaults.uri(issuer: "Bank\(number)", secret: Vaults.secret(number))], home: home.url, environment: unlock)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let backup = try TokensProcess.run(["backup"], home: home.url, environment: unlock)
        #expect(backup.status == 0 && backup.stderr.isEmpty, "\(backup.stderr)")
        let folder = Vaults.path(phase: "real", home: home.url).deletingLastPathComponent().appendingPathComponent("backups")
        let path = try #require(Self.writtenPath(backup.stdout), "\(backup.stdout)")
        #expect(backup.stdout.hasPrefix("Backed up 2 accounts to \(folder.path)/vault-") && backup.stdout.hasSuffix(" bytes, checked)\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [(path as NSString).lastPathComponent])
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)

        let verified = try TokensProcess.run(["backup", "verify", path], home: home.url, environment: unlock)
        #expect(verified.status == 0 && verified.stdout.hasPrefix("\(path): 2 accounts, "), "\(verified.stdout)\(verified.stderr)")

        let elsewhere = home.url.appendingPathComponent("synced/tokens")
        let moved = try TokensProcess.run(["backup", "now", "--to", elsewhere.path], home: home.url, environment: unlock)
        #expect(moved.status == 0 && moved.stdout.hasPrefix("Backed up 2 accounts to \(elsewhere.path)/vault-"), "\(moved.stderr)")
    }

    @Test("verify: a damaged copy is status 7, a wrong passphrase 4, a missing file 1, each one line; DEV has nothing to back up")
    func failures() throws {
        let home = try TemporaryHome()
        let unlock = Vaults.environment()
        _ = try TokensProcess.run(["init"], home: home.url, environment: unlock)
        let backup = try TokensProcess.run(["backup"], home: home.url, environment: unlock)
        let path = try #require(Self.writtenPath(backup.stdout), "\(backup.stdout)\(backup.stderr)")
        let damaged = home.url.appendingPathComponent("damaged.sqlite").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(60)).write(to: URL(fileURLWithPath: damaged))

        let bad = try TokensProcess.run(["backup", "verify", damaged], home: home.url, environment: unlock)
        #expect(bad.status == 7)
        #expect(bad.errorLines == ["tokens: the backup \(damaged) failed its check: the file is truncated"])
        let wrong = try TokensProcess.run(["backup", "verify", path], home: home.url, environment: Vaults.environment("not it"))
        #expect(wrong.status == 4 && wrong.errorLines == ["tokens: wrong passphrase"])
        let missing = home.url.appendingPathComponent("none.sqlite").path
        let absent = try TokensProcess.run(["backup", "verify", missing], home: home.url, environment: unlock)
        #expect(absent.status == 1 && absent.errorLines == ["tokens: no file at \(missing)"])
        let dev = try TokensProcess.run(["backup", "--phase", "dev"], home: home.url)
        #expect(dev.status == 1 && dev.errorLines.count == 1 && dev.stderr.contains("DEV"), "\(dev.stderr)")
    }

    @Test("restore shows what would change, asks (or needs --yes), brings back a deleted account once; list checks each copy")
    func restoresAndLists() throws {
        let home = try TemporaryHome()
        let unlock = Self.unlock
        _ = try TokensProcess.run(["init"], home: home.url, environment: unlock)
        for number in 1...2 {
            _ = try TokensProcess.run(
                ["add", Vaults.uri(issuer: "Bank\(number)", secret: Vaults.secret(number))], home: home.url, environment: unlock)
        }
        let backup = try TokensProcess.run(["backup"], home: home.url, environment: unlock)
        let path = try #require(Self.writtenPath(backup.stdout), "\(backup.stdout)\(backup.stderr)")
        let removed = try TokensProcess.run(["rm", "Bank2", "--yes"], home: home.url, environment: unlock)
        #expect(removed.status == 0, "\(removed.stderr)")

        let dry = try TokensProcess.run(["backup", "restore", path, "--dry-run"], home: home.url, environment: unlock)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("Added back (gone from the vault): 1\n  + Bank2"), "\(dry.stdout)")
        #expect(dry.stdout.contains("Unchanged: 1; only in the vault, kept: 0\nDry run: nothing was written\n"), "\(dry.stdout)")
        let unasked = try TokensProcess.run(["backup", "restore", path], home: home.url, environment: unlock)
        #expect(unasked.status == 1 && unasked.errorLines.count == 1 && unasked.stderr.contains("pass --yes"), "\(unasked.stderr)")
        #expect(!(try TokensProcess.run(["list"], home: home.url, environment: unlock).stdout.contains("Bank2")))

        let restored = try TokensProcess.run(["backup", "restore", path, "--yes"], home: home.url, environment: unlock)
        #expect(
            restored.status == 0 && restored.stdout.hasSuffix("Restored: 1 added back, 0 updated\n"), "\(restored.stdout)\(restored.stderr)"
        )
        #expect(try TokensProcess.run(["list"], home: home.url, environment: unlock).stdout.contains("Bank2"))
        let again = try TokensProcess.run(["backup", "restore", path, "--yes"], home: home.url, environment: unlock)
        #expect(again.stdout.hasSuffix("Nothing to restore: the vault has everything the backup holds\n"), "\(again.stdout)")

        let damaged = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("vault-20000101T000000.000Z.sqlite")
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(60)).write(to: URL(fileURLWithPath: damaged))
        let listed = try TokensProcess.run(["backup", "list"], home: home.url, environment: unlock)
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(listed.stdout)")
        #expect(lines.first?.contains("FAILED: the backup \(damaged) failed its check") == true, "\(listed.stdout)")
        #expect(lines.last?.hasPrefix((path as NSString).lastPathComponent + "  2 accounts  ") == true, "\(listed.stdout)")
        #expect(lines.last?.hasSuffix(" bytes  checked") == true)
    }

    @Test("a copy written before passwd restores with its own passphrase from a file or TOKENS_BACKUP_PASSPHRASE; without one, one line")
    func restoresUnderOldPassphrase() throws {
        let home = try TemporaryHome()
        let old = Self.unlock
        _ = try TokensProcess.run(["init"], home: home.url, environment: old)
        _ = try TokensProcess.run(["add", Vaults.uri(issuer: "Bank1", secret: Vaults.secret(1))], home: home.url, environment: old)
        let backup = try TokensProcess.run(["backup"], home: home.url, environment: old)
        let path = try #require(Self.writtenPath(backup.stdout), "\(backup.stdout)\(backup.stderr)")
        let changed = try TokensProcess.run(
            ["passwd"], home: home.url, environment: old.merging(["TOKENS_NEW_PASSPHRASE": "another long passphrase"]) { $1 })
        #expect(changed.status == 0, "\(changed.stderr)")
        let new = Vaults.environment("another long passphrase").merging(["TOKENS_BACKUP_AUTO": "0"]) { $1 }
        _ = try TokensProcess.run(["rm", "Bank1", "--yes"], home: home.url, environment: new)

        let asked = try TokensProcess.run(["backup", "restore", path, "--yes"], home: home.url, environment: new)
        #expect(asked.status != 0 && asked.errorLines.count == 1, "\(asked.stderr)")
        #expect(asked.stderr.contains("--backup-passphrase-file or TOKENS_BACKUP_PASSPHRASE"), "\(asked.stderr)")
        let file = home.url.appendingPathComponent("old-passphrase")
        try Data((Vaults.passphrase + "\n").utf8).write(to: file)
        let dry = try TokensProcess.run(
            ["backup", "restore", path, "--dry-run", "--backup-passphrase-file", file.path], home: home.url, environment: new)
        #expect(dry.status == 0 && dry.stdout.contains("Added back (gone from the vault): 1\n  + Bank1"), "\(dry.stdout)\(dry.stderr)")
        let restored = try TokensProcess.run(
            ["backup", "restore", path, "--yes"], home: home.url,
            environment: new.merging(["TOKENS_BACKUP_PASSPHRASE": Vaults.passphrase]) { $1 })
        #expect(restored.status == 0 && restored.stdout.hasSuffix("Restored: 1 added back, 0 updated\n"), "\(restored.stderr)")
        #expect(try TokensProcess.run(["list"], home: home.url, environment: new).stdout.contains("Bank1"))
    }

    @Test(
        "a change writes a checked copy when none is recent; a read or a second change soon after writes none; retention keeps the newest")
    func automatic() throws {
        let home = try TemporaryHome()
        let unlock = Vaults.environment()
        let folder = Vaults.path(phase: "real", home: home.url).deletingLastPathComponent().appendingPathComponent("backups")
        func copies() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }
        _ = try TokensProcess.run(["init"], home: home.url, environment: unlock)
        #expect(copies().isEmpty)
        let added = try TokensProcess.run(
            ["add", Vaults.uri(issuer: "Bank1", secret: Vaults.secret(1))], home: home.url, environment: unlock)
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added.stderr)")
        let first = copies()
        #expect(first.count == 1, "\(first)")
        _ = try TokensProcess.run(["add", Vaults.uri(issuer: "Bank2", secret: Vaults.secret(2))], home: home.url, environment: unlock)
        _ = try TokensProcess.run(["list"], home: home.url, environment: unlock)
        #expect(copies() == first, "within backup.auto (an hour) of the last copy, and after a read, no copy")
        let verified = try TokensProcess.run(
            ["backup", "verify", folder.appendingPathComponent(first[0]).path], home: home.url, environment: unlock)
        #expect(verified.status == 0 && verified.stdout.contains(": 1 account, "), "\(verified.stdout)\(verified.stderr)")

        let keepTwo = unlock.merging(["TOKENS_BACKUP_KEEP_LAST": "2", "TOKENS_BACKUP_KEEP_DAYS": "0", "TOKENS_BACKUP_KEEP_MONTHS": "0"]) {
            $1
        }
        var written: [String] = []
        for _ in 1...3 {
            let backup = try TokensProcess.run(["backup"], home: home.url, environment: keepTwo)
            written.append(try #require(Self.writtenPath(backup.stdout), "\(backup.stdout)\(backup.stderr)"))
        }
        #expect(copies() == written.suffix(2).map { ($0 as NSString).lastPathComponent }, "the two newest kept")
    }
}
