import Foundation
import IntegrationTestSupport
import Testing

/// `tokens doctor` through the binary: a line for each check, status 1 when one needs
/// attention, the same checks as JSON.
@Suite("Doctor through the binary")
struct DoctorCLITests {
    /// No automatic copies, and no kept key (the keyring is not the same on every machine).
    static let unlock = Vaults.environment().merging(["TOKENS_BACKUP_AUTO": "0", "TOKENS_UNLOCK_TIMEOUT": "0"]) { $1 }

    @Test("no backup is a warning; a fresh checked copy is ok; an old one is a warning; a damaged one fails; --json has them all")
    func backups() throws {
        let home = try TemporaryHome()
        _ = try TokensProcess.run(["init"], home: home.url, environment: Self.unlock)
        let vault = Vaults.path(phase: "real", home: home.url)
        let folder = vault.deletingLastPathComponent().appendingPathComponent("backups")

        let none = try TokensProcess.run(["doctor"], home: home.url, environment: Self.unlock)
        #expect(none.status == 1 && none.errorLines == ["tokens: 1 check needs attention"], "\(none.stderr)")
        let lines = none.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(none.stdout)")
        #expect(lines.first == "vault    ok    \(vault.path): 0 accounts, every entry checked")
        #expect(lines.contains("backups  warn  none in \(folder.path): run tokens backup"), "\(none.stdout)")
        #expect(lines.contains("keyring  off   unlock.timeout is 0: every command asks"), "\(none.stdout)")
        #expect(lines.contains("sync     off   not set up (tokens sync init or join)"), "\(none.stdout)")
        // Whether the kernel says the clock is synchronised depends on the machine: ok or off, never a warning alone.
        let clock = try #require(lines.last)
        #expect(clock.hasPrefix("clock    ok    kept in time by the system") || clock.hasPrefix("clock    off   "), "\(clock)")
        #expect(clock.hasSuffix("; not measured against a sync server yet (each sync measures it)"), "\(clock)")

        _ = try TokensProcess.run(["add", Vaults.uri(issuer: "Bank1", secret: Vaults.secret(1))], home: home.url, environment: Self.unlock)
        let backup = try TokensProcess.run(["backup"], home: home.url, environment: Self.unlock)
        let path = try #require(BackupCLITests.writtenPath(backup.stdout), "\(backup.stdout)\(backup.stderr)")
        let fresh = try TokensProcess.run(["doctor"], home: home.url, environment: Self.unlock)
        #expect(fresh.status == 0 && fresh.stderr.isEmpty, "\(fresh.stdout)\(fresh.stderr)")
        #expect(fresh.stdout.contains("backups  ok    1 in \(folder.path); newest "), "\(fresh.stdout)")
        #expect(fresh.stdout.contains(" old, checked (1 account)"), "\(fresh.stdout)")

        let json = try TokensProcess.run(["doctor", "--json"], home: home.url, environment: Self.unlock)
        let checks = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]])
        #expect(checks.map { $0["check"] ?? "" } == ["vault", "backups", "keyring", "sync", "clock"])
        #expect(checks.prefix(4).map { $0["status"] ?? "" } == ["ok", "ok", "off", "off"])

        let old = folder.appendingPathComponent("vault-20000101T000000.000Z.sqlite")
        try FileManager.default.moveItem(atPath: path, toPath: old.path)
        let stale = try TokensProcess.run(["doctor"], home: home.url, environment: Self.unlock)
        #expect(stale.status == 1 && stale.stdout.contains("backups  warn  newest "), "\(stale.stdout)")
        #expect(stale.stdout.contains("more than backup.stale (7 days): run tokens backup"), "\(stale.stdout)")

        try Data(try Data(contentsOf: old).prefix(60)).write(to: old)
        let damaged = try TokensProcess.run(["doctor"], home: home.url, environment: Self.unlock)
        #expect(damaged.status == 1 && damaged.stdout.contains("backups  fail  newest "), "\(damaged.stdout)")
        #expect(damaged.stdout.contains("failed its check"), "\(damaged.stdout)")
    }
}
