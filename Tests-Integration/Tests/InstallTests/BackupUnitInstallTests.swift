import Foundation
import IntegrationTestSupport
import Testing

/// The systemd user units of automatic backups as `make install` ships them: systemd's own
/// checker accepts them, and the service's command, run as the timer runs it (no terminal, no
/// passphrase), writes a checked copy while the vault is unlocked and none while it is unchanged.
@Suite(
    "make install's backup timer",
    .enabled(if: ProcessInfo.processInfo.environment["TOKENS_INSTALL_PREFIX"] != nil, "set by make test-install"),
    .serialized)
struct BackupUnitInstallTests {
    let prefix = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TOKENS_INSTALL_PREFIX"] ?? "/nonexistent")
    var units: URL { prefix.appendingPathComponent("share/systemd/user") }

    /// The installed service's command line: the program and its arguments.
    func serviceCommand() throws -> [String] {
        let unit = try String(contentsOf: units.appendingPathComponent("tokens-backup.service"), encoding: .utf8)
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        return line.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
    }

    @Test("systemd-analyze verifies both units with no remark; the service runs the installed tokens")
    func verified() throws {
        let runtime = try TemporaryHome()
        let analyze = try ProcessRunner.run(
            "systemd-analyze",
            ["--user", "verify"] + ["tokens-backup.service", "tokens-backup.timer"].map { units.appendingPathComponent($0).path },
            environment: ["XDG_RUNTIME_DIR": runtime.url.path, "PATH": "/usr/bin:/bin"])
        #expect(analyze.status == 0 && analyze.stderr.isEmpty, "\(analyze.stderr)")
        #expect(try serviceCommand().first == prefix.appendingPathComponent("bin/tokens").path)
        let timer = try String(contentsOf: units.appendingPathComponent("tokens-backup.timer"), encoding: .utf8)
        #expect(timer.contains("\nOnCalendar=hourly\n") && timer.contains("\nPersistent=true\n"))
        // The control: a key systemd does not know is a remark, so the check above can fail.
        let bad = runtime.url.appendingPathComponent("bad.service")
        let service = try String(contentsOf: units.appendingPathComponent("tokens-backup.service"), encoding: .utf8)
        try Data(service.replacingOccurrences(of: "\nNice=", with: "\nNicety=").utf8).write(to: bad)
        let refused = try ProcessRunner.run(
            "systemd-analyze", ["--user", "verify", bad.path], environment: ["XDG_RUNTIME_DIR": runtime.url.path, "PATH": "/usr/bin:/bin"])
        #expect(refused.stderr.contains("Nicety"))
    }

    @Test("the service's command: one line while locked, a checked copy while unlocked, none while unchanged, one after a change")
    func runsAsTheTimerDoes() throws {
        let home = try TemporaryHome()
        let command = try serviceCommand()
        let tokens = try #require(command.first)
        let quiet = TokensProcess.environment(home: home.url).merging(["TOKENS_BACKUP_AUTO": "0"]) { $1 }
        let withPassphrase = quiet.merging(Vaults.environment()) { $1 }
        #expect(try ProcessRunner.run(tokens, ["init", "--phase", "real"], environment: withPassphrase).status == 0)
        let added = try ProcessRunner.run(tokens, ["add", RFC6238.vectors[0].uri, "--phase", "real"], environment: withPassphrase)
        #expect(added.status == 0, "\(added.stderr)")
        let backups = Vaults.path(phase: "real", home: home.url).deletingLastPathComponent().appendingPathComponent("backups")
        let copies = { (try? FileManager.default.contentsOfDirectory(atPath: backups.path))?.filter { $0.hasSuffix(".sqlite") }.count ?? 0 }

        let locked = try ProcessRunner.run(tokens, Array(command.dropFirst()), environment: quiet)
        #expect(locked.status != 0 && locked.errorLines.count == 1 && locked.stderr.contains("no passphrase"), "\(locked.stderr)")
        #expect(copies() == 0)

        let unlocked = try ProcessRunner.run(tokens, ["unlock", "--for", "10m", "--phase", "real"], environment: withPassphrase)
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        defer { _ = try? ProcessRunner.run(tokens, ["lock", "--phase", "real"], environment: quiet) }
        let first = try ProcessRunner.run(tokens, Array(command.dropFirst()), environment: quiet)
        #expect(first.status == 0 && first.stdout.hasPrefix("Backed up 1 account to "), "\(first.stdout)\(first.stderr)")
        let second = try ProcessRunner.run(tokens, Array(command.dropFirst()), environment: quiet)
        #expect(second.status == 0 && second.stdout.hasPrefix("Unchanged since the newest backup, "), "\(second.stdout)\(second.stderr)")
        #expect(copies() == 1)

        let more = try ProcessRunner.run(tokens, ["add", RFC6238.vectors[1].uri, "--phase", "real"], environment: quiet)
        #expect(more.status == 0, "\(more.stderr)")
        let third = try ProcessRunner.run(tokens, Array(command.dropFirst()), environment: quiet)
        #expect(third.status == 0 && third.stdout.hasPrefix("Backed up 2 accounts to "), "\(third.stdout)\(third.stderr)")
        #expect(copies() == 2)
    }
}
