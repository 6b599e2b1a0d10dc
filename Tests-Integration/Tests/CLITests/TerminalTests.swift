import Foundation
import IntegrationTestSupport
import Testing

/// What only a real terminal shows: passphrase prompts without echo, and the live screen.
@Suite(
    "tokens in a terminal (tmux)",
    .enabled(if: TmuxSession.isAvailable || RequiredTests.all, "tmux is not installed (make deps-test installs it)"))
struct TerminalTests {
    @Test("tmux is there (CI, with TOKENS_REQUIRE_ALL_TESTS=1, runs this suite whatever happens)")
    func tmuxIsInstalled() {
        #expect(TmuxSession.isAvailable, "tmux is not installed, and TOKENS_REQUIRE_ALL_TESTS=1 says this run must have it")
    }

    @Test("init asks twice without echo; a mismatch changes nothing; the right passphrase unlocks")
    func passphrasePrompts() throws {
        let home = try TemporaryHome()
        let mismatch = try TmuxSession(tokens: ["init"], home: home.url)
        try mismatch.waitFor("New vault passphrase:")
        try mismatch.type("first-secret-phrase")
        try mismatch.press("Enter")
        try mismatch.waitFor("Repeat new vault passphrase:")
        try mismatch.type("second-secret-phrase")
        try mismatch.press("Enter")
        let refused = try mismatch.waitFor("[exit 1]")
        #expect(refused.contains("the passphrases do not match"))
        #expect(!refused.contains("secret-phrase"), "the passphrase was echoed")
        #expect(!FileManager.default.fileExists(atPath: Vaults.path(phase: "real", home: home.url).path))

        let created = try TmuxSession(tokens: ["init"], home: home.url)
        try created.waitFor("New vault passphrase:")
        try created.type("typed-passphrase")
        try created.press("Enter")
        try created.waitFor("Repeat")
        try created.type("typed-passphrase")
        try created.press("Enter")
        let done = try created.waitFor("[exit 0]")
        #expect(done.contains("Created the REAL vault"))
        #expect(!done.contains("typed-passphrase"))

        let listed = try TokensProcess.run(["list"], home: home.url, environment: Vaults.environment("typed-passphrase"))
        #expect(listed.status == 0)
        #expect(listed.stdout == "No accounts.\n")
    }

    @Test(
        "a code still on the clipboard is cleared when the screen ends: on quit, and on SIGTERM",
        arguments: ["quit", "SIGTERM"])
    func clipboardClearedAtEnd(ending: String) throws {
        let home = try TemporaryHome()
        let session = try TmuxSession(tokens: ["--phase", "dev"], home: home.url)
        try session.waitFor("5 accounts")
        try session.type("c")
        try session.waitFor("Copied")
        let copied = try session.pasteBuffer()
        #expect(copied.range(of: #"^\d{5,8}$"#, options: .regularExpression) != nil, "clipboard: \(copied)")
        if ending == "quit" {
            try session.type("q")
            try session.waitFor("[exit 0]")
        } else {
            kill(try #require(try session.paneChildren().first), SIGTERM)
            try session.waitFor("[exit 143]")
        }
        #expect(try session.pasteBuffer() == " ", "the copied code is still on the clipboard")
    }

    @Test("a signal at a passphrase prompt ends tokens with the terminal's echo back on")
    func interruptedPromptRestoresEcho() throws {
        let home = try TemporaryHome()
        let session = try TmuxSession(tokens: ["init"], home: home.url)
        try session.waitFor("New vault passphrase:")
        try session.type("half-typed")
        // SIGTERM to tokens alone: Ctrl-C would end the pane's shell with it. The handler is
        // the same for SIGINT, SIGTERM, SIGHUP and SIGQUIT.
        let tokens = try #require(try session.paneChildren().first)
        kill(tokens, SIGTERM)
        try session.waitFor("[exit 143]")
        // `sleep` now runs in the pane: whatever is typed shows only if the tty echoes again.
        try session.type("echo-is-back")
        let screen = try session.waitFor("echo-is-back")
        #expect(screen.contains("echo-is-back"), "the terminal was left without echo:\n\(screen)")
        #expect(!screen.contains("half-typed"))
        #expect(!FileManager.default.fileExists(atPath: Vaults.path(phase: "real", home: home.url).path))
    }

    @Test("hostile names from an import reach the screen cleaned: no paste buffer written, the pane title unchanged")
    func hostileNamesOnScreen() throws {
        let home = try TemporaryHome()
        _ = try TokensProcess.run(["init"], home: home.url, environment: Vaults.environment())
        let uris = HostileText.corpus.prefix(4).enumerated().map { index, entry in
            HostileText.uri(entry.text, secret: ["JBSWY3DPEHPK3PXP", "KRSXG5CTMVRXEZLU", "MFRGGZDFMZTWQ2LK", "GEZDGNBVGY3TQOJQ"][index])
        }
        let imported = try TokensProcess.run(
            ["import", "-"], home: home.url, environment: Vaults.environment(), input: uris.joined(separator: "\n"))
        #expect(imported.status == 0, "\(imported.stderr)")
        let session = try TmuxSession(tokens: [], home: home.url, width: 120, height: 20)
        let titleBefore = try session.paneTitle()
        try session.waitFor("The vault is locked.")
        try session.type(Vaults.passphrase)
        try session.press("Enter")
        let screen = try session.waitFor("4 accounts")
        #expect(screen.contains("EvilBank") || screen.contains("Evil]52;c;"), "\(screen)")
        try session.press("Down")
        try session.press("Down")
        _ = try session.waitFor("Clear")
        #expect(try session.paneTitle() == titleBefore)
        #expect(!(try session.paneTitle()).contains("pwned"))
        #expect(!(try session.pasteBufferSamples()).contains("hostile"), "a paste buffer holds the hostile payload")
    }

    @Test("--passphrase-file or TOKENS_PASSPHRASE open the screen on the list, without Unlock")
    func givenPassphraseSkipsUnlock() throws {
        let home = try TemporaryHome()
        _ = try TokensProcess.run(["init"], home: home.url, environment: Vaults.environment())
        _ = try TokensProcess.run(["add", RFC6238.vectors[0].uri], home: home.url, environment: Vaults.environment())
        let file = home.url.appendingPathComponent("passphrase")
        try Data((Vaults.passphrase + "\n").utf8).write(to: file)
        chmod(file.path, 0o600)
        for (arguments, environment) in [(["--passphrase-file", file.path], [:]), ([], Vaults.environment())] {
            let session = try TmuxSession(tokens: arguments, home: home.url, environment: environment)
            let screen = try session.waitFor("1 account", timeout: 60)
            #expect(screen.contains("RFC6238") && !screen.contains("The vault is locked."))
            try session.type("q")
            try session.waitFor("[exit 0]")
        }
    }

    @Test(
        "REAL with no backup: the header says so; an account added in the screen is backed up as it quits, a session that only read is not")
    func backsUpAsItQuits() throws {
        let home = try TemporaryHome()
        let noAutomatic = Vaults.environment().merging(["TOKENS_BACKUP_AUTO": "0"]) { $1 }
        _ = try TokensProcess.run(["init"], home: home.url, environment: noAutomatic)
        _ = try TokensProcess.run(["add", RFC6238.vectors[0].uri], home: home.url, environment: noAutomatic)
        let backups = Vaults.path(phase: "real", home: home.url).deletingLastPathComponent().appendingPathComponent("backups")
        func copies() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: backups.path)) ?? [] }

        let reading = try TmuxSession(tokens: [], home: home.url, environment: Vaults.environment(), width: 80, height: 16)
        let opened = try reading.waitFor("1 account", timeout: 60)
        #expect(opened.contains("no backup yet · 1 account"), "\(opened)")
        try reading.type("q")
        try reading.waitFor("[exit 0]")
        #expect(copies().isEmpty, "nothing changed, so nothing was copied")

        let session = try TmuxSession(tokens: [], home: home.url, environment: Vaults.environment(), width: 80, height: 16)
        try session.waitFor("1 account", timeout: 60)
        try session.type("a")
        try session.waitFor("Add an account")
        try session.type("otpauth://totp/Pasted:me?secret=JBSWY3DPEHPK3PXP")
        try session.waitFor("Ready to save")
        try session.press("Enter")
        try session.waitFor("2 accounts")
        try session.type("q")
        let ended = try session.waitFor("[exit 0]")
        #expect(!ended.contains("automatic backup failed"), "\(ended)")
        #expect(copies().count == 1, "\(copies())")
        let listed = try TokensProcess.run(["backup", "list"], home: home.url, environment: noAutomatic)
        #expect(listed.stdout.contains("  2 accounts  ") && listed.stdout.hasSuffix("checked\n"), "\(listed.stdout)")
    }

    @Test("an account added from a shell shows in the open screen within seconds, without a key press")
    func followsAnotherProcess() throws {
        let home = try TemporaryHome()
        _ = try TokensProcess.run(["init"], home: home.url, environment: Vaults.environment())
        _ = try TokensProcess.run(["add", RFC6238.vectors[0].uri], home: home.url, environment: Vaults.environment())
        let session = try TmuxSession(tokens: [], home: home.url, environment: Vaults.environment())
        try session.waitFor("1 account", timeout: 60)
        let added = try TokensProcess.run(["add", Vaults.uri(issuer: "FromTheShell")], home: home.url, environment: Vaults.environment())
        #expect(added.status == 0, "\(added.stderr)")
        let screen = try session.waitFor("2 accounts", timeout: 30)
        #expect(screen.contains("FromTheShell"))
        try session.type("q")
        try session.waitFor("[exit 0]")
    }

    @Test(
        "unlocked with tokens unlock: the screen opens on the list; its idle lock drops the kept key, quitting does not",
        arguments: [true, false])
    func keptKeyOpensTheScreen(idleLock: Bool) throws {
        let home = try TemporaryHome()
        defer { _ = try? TokensProcess.run(["lock"], home: home.url) }
        _ = try TokensProcess.run(["init"], home: home.url, environment: Vaults.environment())
        _ = try TokensProcess.run(["add", RFC6238.vectors[0].uri], home: home.url, environment: Vaults.environment())
        #expect(try TokensProcess.run(["unlock"], home: home.url, environment: Vaults.environment()).status == 0)
        let config = home.url.appendingPathComponent("config/tokens")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"lock": {"idle": 5}}"#.utf8).write(to: config.appendingPathComponent("config.json"))
        let session = try TmuxSession(tokens: [], home: home.url)
        let screen = try session.waitFor("1 account", timeout: 60)
        #expect(screen.contains("RFC6238") && !screen.contains("The vault is locked."))
        if idleLock {
            try session.waitFor("The vault is locked.", timeout: 15)
            #expect(try TokensProcess.run(["unlock", "--status"], home: home.url).stdout.hasPrefix("locked"))
        } else {
            try session.type("q")
            try session.waitFor("[exit 0]")
            #expect(try TokensProcess.run(["unlock", "--status"], home: home.url).stdout.hasPrefix("unlocked"))
        }
    }

    @Test("an encrypted import with no password given asks for it on the terminal, without echo")
    func importAsksPassword() throws {
        let home = try TemporaryHome()
        let export = home.url.appendingPathComponent("aegis.json")
        let exported = try TokensProcess.run(
            ["export", "--format", "aegis-encrypted", "--output", export.path, "--phase", "dev"], home: home.url,
            environment: ["TOKENS_EXPORT_PASSWORD": "backup-pw"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let session = try TmuxSession(
            tokens: ["import", export.path, "--dry-run", "--phase", "dev", "--duplicates", "keep"], home: home.url)
        try session.waitFor("Password of the Aegis")
        try session.type("backup-pw")
        try session.press("Enter")
        let done = try session.waitFor("[exit 0]", timeout: 60)
        #expect(done.contains("would add 5") && !done.contains("backup-pw"), "\(done)")
    }

    @Test("REAL: Unlock says a wrong passphrase, opens with the right one, copies with c, locks when idle")
    func unlockCopyAndIdleLock() throws {
        let home = try TemporaryHome()
        _ = try TokensProcess.run(["init"], home: home.url, environment: Vaults.environment())
        _ = try TokensProcess.run(["add", RFC6238.vectors[0].uri], home: home.url, environment: Vaults.environment())
        let config = home.url.appendingPathComponent("config/tokens")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"lock": {"idle": 5}}"#.utf8).write(to: config.appendingPathComponent("config.json"))
        let session = try TmuxSession(tokens: [], home: home.url)
        try session.waitFor("The vault is locked.")
        try session.type("not it")
        try session.press("Enter")
        let refused = try session.waitFor("wrong passphrase")
        #expect(refused.contains("wrong passphrase") && !refused.contains("not it"))
        try session.type(Vaults.passphrase)
        try session.press("Enter")
        let unlocked = try session.waitFor("1 account")
        #expect(unlocked.contains("RFC6238") && !unlocked.contains(Vaults.passphrase))
        try session.type("c")
        let copied = try session.waitFor("Copied")
        #expect(copied.contains("the clipboard clears in 30 s"))
        let code = try session.pasteBuffer()
        #expect(code.range(of: #"^\d{8}$"#, options: .regularExpression) != nil, "clipboard: \(code)")
        let locked = try session.waitFor("The vault is locked.", timeout: 15)
        #expect(locked.contains("The vault is locked.") && !locked.contains("RFC6238"))
    }

    @Test("DEV: the screen syncs with a server in the same process: the header says so, s syncs, nothing is written")
    func devSyncs() throws {
        let home = try TemporaryHome()
        let session = try TmuxSession(tokens: ["--phase", "dev"], home: home.url, width: 100, height: 16)
        let opened = try session.waitFor("synced")
        #expect(opened.contains("(DEV: in memory)") && opened.contains("5 accounts") && opened.contains("s sync"), "\(opened)")
        try session.type("s")
        try session.waitFor("synced")
        try session.type("q")
        try session.waitFor("[exit 0]")
        #expect(home.files().isEmpty, "DEV wrote \(home.files())")
    }

    @Test("DEV: a to add, paste a URI, Enter saves, the list shows it")
    func addByURI() throws {
        let home = try TemporaryHome()
        let session = try TmuxSession(tokens: ["--phase", "dev"], home: home.url, width: 80, height: 16)
        try session.waitFor("5 accounts")
        try session.type("a")
        try session.waitFor("Add an account")
        try session.type("otpauth://totp/Pasted:me?secret=JBSWY3DPEHPK3P")
        let invalid = try session.waitFor("truncated")
        #expect(invalid.contains("secret: invalid Base32 length"))
        try session.type("XP")
        try session.waitFor("Ready to save")
        try session.press("Enter")
        let listed = try session.waitFor("6 accounts")
        #expect(listed.contains("Pasted"))
    }

    @Test("DEV: e opens the details, an edited note is saved; d then u deletes and undoes")
    func editAndDelete() throws {
        let home = try TemporaryHome()
        let session = try TmuxSession(tokens: ["--phase", "dev"], home: home.url, width: 80, height: 14)
        try session.waitFor("5 accounts")
        try session.type("e")
        try session.waitFor("Account details")
        try session.press("Tab", "Tab")
        try session.type("personal")
        try session.press("Enter")
        let saved = try session.waitFor("Saved Google")
        #expect(saved.contains("5 accounts"))
        try session.type("d")
        try session.waitFor("y to confirm")
        try session.type("y")
        let deleted = try session.waitFor("4 accounts")
        #expect(deleted.contains("u to undo"))
        try session.type("u")
        let restored = try session.waitFor("5 accounts")
        #expect(restored.contains("Restored Google"))
    }

    @Test("the DEV screen shows live codes, searches with /, quits with q and restores the terminal")
    func devScreen() throws {
        let home = try TemporaryHome()
        let session = try TmuxSession(tokens: ["--phase", "dev"], home: home.url, width: 60, height: 12)
        let screen = try session.waitFor("GitHub")
        #expect(screen.contains("Tokens") && screen.contains("5 accounts"))
        #expect(screen.range(of: #"\d{3} \d{3}"#, options: .regularExpression) != nil)
        try session.type("/git")
        let filtered = try session.waitFor("1 account")
        #expect(filtered.contains("GitHub") && !filtered.contains("Amazon"))
        try session.press("Enter")
        try session.type("q")
        let after = try session.waitFor("[exit 0]")
        #expect(!after.contains("1 account"), "the alternate screen was not left")
    }
}
