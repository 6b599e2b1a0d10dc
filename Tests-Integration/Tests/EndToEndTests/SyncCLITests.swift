import Foundation
import IntegrationTestSupport
import Testing

/// Two machines (two temporary homes, REAL phase) syncing through `tokens-server` with the
/// `tokens sync` commands, as a user types them: on a DEV server, and on an ALPHA server on
/// PostgreSQL whose database is then searched for plaintext.
@Suite("tokens sync between two machines")
struct SyncCLITests {
    static let github = "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub"
    static let bank = "otpauth://hotp/Bank:bob?secret=GEZDGNBVGY3TQOJQ&issuer=Bank&counter=3"

    /// Runs tokens in `home` with the REAL vault unlocked; the status must be `status`.
    @discardableResult
    static func tokens(
        _ arguments: [String], _ home: URL, input: String? = nil, status: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try TokensProcess.run(
            ["--phase", "real"] + arguments, home: home, environment: Vaults.environment(), input: input)
        #expect(result.status == status, "tokens \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// What `list --json` says, without what ticks with time.
    static func accounts(_ home: URL) throws -> [String] {
        try tokens(["list", "--json"], home).stdout.split(separator: "\n").filter { line in
            !["secondsRemaining", "\"code\"", "nextCode"].contains { line.contains($0) }
        }.map(String.init)
    }

    /// init on the laptop, join on the desktop with the code on standard input, an edit on each
    /// side, and both end with the same accounts. Returns the laptop's and desktop's homes' URLs.
    static func setUpAndConverge(_ server: ServerProcess, laptop: URL, desktop: URL) throws {
        let url = server.baseURL.absoluteString
        for home in [laptop, desktop] { try tokens(["init"], home) }
        try tokens(["add", "-"], laptop, input: github + "\n")
        try tokens(["add", "-"], desktop, input: bank + "\n")

        // Before joining, sync says how to start, with its own status; HTTP is refused elsewhere.
        #expect(try tokens(["sync"], laptop, status: 6).stderr.contains("tokens sync init"))
        try tokens(["sync", "init", "--server", "http://sync.example.com"], laptop, status: 1)

        #expect(try tokens(["sync", "init", "--server", url, "--name", "laptop"], laptop).stdout.contains("1 sent"))
        let code = try tokens(["sync", "code"], laptop).stdout
        let drawn = try tokens(["sync", "code", "--qr"], laptop).stdout
        #expect(drawn.hasSuffix(code) && drawn.contains("█"))
        try tokens(["sync", "join", "--server", url, "--name", "desktop"], desktop, input: "not a code", status: 1)
        let joined = try tokens(["sync", "join", "--server", url, "--name", "desktop"], desktop, input: code)
        #expect(joined.stdout.contains("1 received, 1 sent"))
        try tokens(["sync"], laptop)
        #expect(try accounts(laptop) == accounts(desktop))
        #expect(try accounts(laptop).joined().contains("Bank"))

        // An edit on each side, offline from each other, then both sync.
        try tokens(["edit", "github", "--groups", "Work"], laptop)
        try tokens(["code", "bank"], desktop)
        try tokens(["sync"], laptop)
        // One-shots sync only when asked: --sync brings the laptop's edit before listing.
        #expect(try !tokens(["list", "--json"], desktop).stdout.contains("\"Work\""))
        #expect(try tokens(["list", "--json", "--sync"], desktop).stdout.contains("\"Work\""))
        try tokens(["sync"], laptop)
        // A delete on one side reaches the other.
        try tokens(["add", "-"], desktop, input: "otpauth://totp/Temp:x?secret=MFRGGZDFMZTWQ2LK&issuer=Temp\n")
        try tokens(["sync"], desktop)
        #expect(try tokens(["list", "--sync"], laptop).stdout.contains("Temp"))
        try tokens(["rm", "temp", "--yes"], laptop)
        try tokens(["sync"], laptop)
        #expect(try !tokens(["list", "--sync"], desktop).stdout.contains("Temp"))
        let ends = try accounts(laptop)
        #expect(ends == (try accounts(desktop)))
        #expect(ends.joined().contains("\"Work\"") && ends.joined().contains("\"counter\" : 4"))
        let status = try tokens(["sync", "status", "--json"], desktop).stdout
        #expect(status.contains("\"pending\" : 0") && status.contains("\"syncing\" : true"))
    }

    /// With the server gone, the vault works as before and sync fails with status 6 and one
    /// line; the change made meanwhile waits.
    static func offline(laptop: URL) throws {
        #expect(try tokens(["code", "github"], laptop).stdout.count == 7)
        try tokens(["edit", "github", "--note", "made offline"], laptop)
        let listed = try tokens(["list", "--sync"], laptop)
        #expect(listed.stdout.contains("GitHub") && listed.stderr.contains("--sync: offline"))
        let failed = try tokens(["sync"], laptop, status: 6)
        #expect(failed.stderr.hasPrefix("tokens: offline") && failed.errorLines.count == 1, "\(failed.stderr)")
        #expect(try tokens(["sync", "status", "--json"], laptop).stdout.contains("\"pending\" : 1"))
    }

    @Test("on a DEV server: set up in a few commands, converge, go offline, revoke and leave")
    func onDevServer() throws {
        let server = try ServerProcess(["--phase", "dev"])
        let laptop = try TemporaryHome()
        let desktop = try TemporaryHome()
        try Self.setUpAndConverge(server, laptop: laptop.url, desktop: desktop.url)

        // The screen syncs when the list opens and shows it; `s` brings another machine's add.
        let session = try TmuxSession(tokens: ["--phase", "real"], home: laptop.url, environment: Vaults.environment(), width: 100)
        let opened = try session.waitFor("synced")
        #expect(opened.contains("2 accounts"), "\(opened)")
        try Self.tokens(["add", "-"], desktop.url, input: "otpauth://totp/Mail:carol?secret=KRSXG5CTMVRXEZLU&issuer=Mail\n")
        try Self.tokens(["sync"], desktop.url)
        try session.type("s")
        #expect(try session.waitFor("3 accounts").contains("Mail"))
        try session.type("q")
        try session.waitFor("[exit 0]")

        // The laptop revokes the desktop: its next sync is refused, with its reason.
        let devices = try Self.tokens(["sync", "devices"], laptop.url).stdout
        // A line a device, saying when the server last saw it (written once a minute, so maybe never yet).
        #expect(devices.split(separator: "\n").count == 2, "\(devices)")
        #expect(devices.split(separator: "\n").allSatisfy { $0.contains("last seen ") || $0.contains("never seen") }, "\(devices)")
        let desktopID = try #require(devices.split(separator: "\n").first { $0.contains("desktop") }?.split(separator: " ").first)
        try Self.tokens(["sync", "revoke", String(desktopID)], laptop.url)
        #expect(try Self.tokens(["sync"], desktop.url, status: 6).stderr.contains("revoked from sync: tokens sync leave"))

        #expect(server.stop() == .exited(0))
        try Self.offline(laptop: laptop.url)
        // Leaving while offline still forgets the membership here, and says the server was not told.
        let ends = try Self.accounts(laptop.url)
        #expect(try Self.tokens(["sync", "leave"], laptop.url).stdout.contains("could not be told"))
        #expect(try Self.tokens(["sync", "status"], laptop.url).stdout.contains("Not syncing"))
        #expect(try Self.accounts(laptop.url) == ends)
    }

    @Test(
        "sync join: the code on the command line is refused (other users read argv); on a terminal it is asked without echo and Enter submits"
    )
    func joinAsksForTheCode() throws {
        let server = try ServerProcess(["--phase", "dev"])
        let laptop = try TemporaryHome()
        let desktop = try TemporaryHome()
        let url = server.baseURL.absoluteString
        for home in [laptop.url, desktop.url] { try Self.tokens(["init"], home) }
        try Self.tokens(["sync", "init", "--server", url, "--name", "laptop"], laptop.url)
        let code = try Self.tokens(["sync", "code"], laptop.url).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = try Self.tokens(["sync", "join", code, "--server", url], desktop.url, status: 64)
        #expect(refused.stderr.contains("must not be on the command line") && !refused.stderr.contains(code))
        #expect(try Self.tokens(["sync", "status"], desktop.url).stdout.contains("Not syncing"))

        let session = try TmuxSession(
            tokens: ["--phase", "real", "sync", "join", "--server", url, "--name", "desktop"], home: desktop.url,
            environment: Vaults.environment(),
            width: 200)
        try session.waitFor("Sync code")
        try session.type(code)
        try session.press("Enter")
        let screen = try session.waitFor("[exit 0]", timeout: 60)
        #expect(screen.contains("Joined the sync account"), "\(screen)")
        #expect(!screen.contains(String(code.prefix(12))), "the code was echoed: \(screen)")
        #expect(server.stop() == .exited(0))
    }

    @Test("sync join and sync init --invite say a missing vault is missing before they ask for the code or the invitation")
    func noVaultBeforeTheSecret() throws {
        let home = try TemporaryHome()
        let vault = Vaults.path(phase: "real", home: home.url).path
        for command in [["sync", "join", "-"], ["sync", "init", "--invite"]] {
            let result = try Self.tokens(
                command + ["--server", "http://127.0.0.1:1"], home.url, input: "not read\n", status: 1)
            #expect(result.errorLines == ["tokens: no vault at \(vault): create one with `tokens init`"], "\(command)")
        }
    }

    @Test("the CA file given at init is remembered with the server: later syncs trust it without --ca-file, and sync status shows it")
    func caFileRemembered() throws {
        let home = try TemporaryHome()
        let tls = home.url.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: tls, withIntermediateDirectories: true)
        let mine = try ServerProcessTests.certificate("mine", in: tls)
        let server = try ServerProcess(["--phase", "dev", "--tls-certificate", mine.certificate, "--tls-key", mine.key])
        let url = server.baseURL.absoluteString
        try Self.tokens(["init"], home.url)
        try Self.tokens(["add", "-"], home.url, input: Self.github + "\n")
        // Without the CA, the server's certificate is refused, and nothing is set up.
        try Self.tokens(["sync", "init", "--server", url, "--name", "laptop"], home.url, status: 6)
        #expect(
            try Self.tokens(["sync", "init", "--server", url, "--name", "laptop", "--ca-file", mine.certificate], home.url).stdout.contains(
                "1 sent"))
        try Self.tokens(["add", "-"], home.url, input: Self.bank + "\n")
        #expect(try Self.tokens(["sync"], home.url).stdout.contains("1 sent"))
        let status = try Self.tokens(["sync", "status"], home.url).stdout
        #expect(status.contains("CA file") && status.contains(mine.certificate))
        #expect(server.stop() == .exited(0))
    }

    @Test("leave, an edit elsewhere, join again: the later edit stays on both (and an HOTP note edited while away too)")
    func rejoinKeepsTheLaterEdit() throws {
        let server = try ServerProcess(["--phase", "dev"])
        let e = try TemporaryHome()
        let f = try TemporaryHome()
        let url = server.baseURL.absoluteString
        for home in [e.url, f.url] { try Self.tokens(["init"], home) }
        try Self.tokens(["add", "otpauth://totp/Xco:x?secret=KNSWG4TFOQQGEIDQ&issuer=Xco"], e.url)
        try Self.tokens(["add", "-"], e.url, input: Self.bank + "\n")
        try Self.tokens(["sync", "init", "--server", url, "--name", "E"], e.url)
        let code = try Self.tokens(["sync", "code"], e.url).stdout
        try Self.tokens(["sync", "join", "--server", url, "--name", "F"], f.url, input: code)
        try Self.tokens(["edit", "xco", "--note", "old"], e.url)
        try Self.tokens(["sync"], e.url)
        try Self.tokens(["sync"], f.url)
        try Self.tokens(["sync", "leave"], f.url)
        try Self.tokens(["edit", "xco", "--note", "new"], e.url)
        try Self.tokens(["sync"], e.url)
        // Away from the account, F uses the HOTP code and notes it.
        try Self.tokens(["code", "bank"], f.url)
        try Self.tokens(["edit", "bank", "--note", "used on F"], f.url)
        try Self.tokens(["sync", "join", "--server", url, "--name", "F2"], f.url, input: code)
        try Self.tokens(["sync"], e.url)
        let ends = try Self.accounts(e.url)
        #expect(try Self.accounts(f.url) == ends)
        let text = ends.joined(separator: "\n")
        #expect(text.contains("\"note\" : \"new\"") && !text.contains("\"note\" : \"old\""), "\(text)")
        #expect(text.contains("\"note\" : \"used on F\"") && text.contains("\"counter\" : 4"), "\(text)")
        #expect(server.stop() == .exited(0))
    }

    @Test("sync --dry-run says what a sync would receive, send and merge, an account a line, and changes nothing here or on the server")
    func dryRun() throws {
        let server = try ServerProcess(["--phase", "dev"])
        let e = try TemporaryHome()
        let f = try TemporaryHome()
        try Self.setUpAndConverge(server, laptop: e.url, desktop: f.url)
        // On E: a note on GitHub and a new account. On F: the bank deleted, GitHub's name changed.
        try Self.tokens(["edit", "github", "--note", "from E"], e.url)
        try Self.tokens(["add", "otpauth://totp/Xco:x?secret=KNSWG4TFOQQGEIDQ&issuer=Xco"], e.url)
        try Self.tokens(["sync"], e.url)
        try Self.tokens(["rm", "bank", "--yes"], f.url)
        try Self.tokens(["edit", "github", "--account", "alice@f"], f.url)
        let (onE, onF) = (try Self.accounts(e.url), try Self.accounts(f.url))

        let said = try Self.tokens(["sync", "--dry-run"], f.url).stdout
        let lines = said.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Dry run with http://127.0.0.1:") == true, "\(said)")
        #expect(
            Array(lines.dropFirst()) == [
                "Would receive: 1",
                lines.first { $0.hasPrefix("  Xco (x) [") && $0.hasSuffix("]: new") } ?? "Xco missing",
                "Would send: 1",
                lines.first { $0.hasPrefix("  Bank (bob) [") && $0.hasSuffix("]: deleted") } ?? "Bank missing",
                "Would merge, changed here and elsewhere (the fields taken from elsewhere): 1",
                lines.first { $0.hasPrefix("  GitHub (alice@f) [") && $0.hasSuffix("]: note") } ?? "GitHub missing",
            ], "\(said)")
        #expect(!said.contains("JBSWY3DPEHPK3PXP") && !said.contains("KNSWG4TFOQQGEIDQ"), "secrets never shown")
        #expect(try Self.accounts(f.url) == onF, "nothing changed here")
        try Self.tokens(["sync"], e.url)
        #expect(try Self.accounts(e.url) == onE, "nothing changed on the server: E receives nothing")

        try Self.tokens(["sync"], f.url)
        try Self.tokens(["sync"], e.url)
        #expect(try Self.accounts(e.url) == Self.accounts(f.url))
        #expect(try Self.tokens(["sync", "--dry-run"], f.url).stdout.hasSuffix("Nothing to receive, send or merge.\n"))
        #expect(server.stop() == .exited(0))
    }
}

/// The same machines through a server on PostgreSQL (the cluster `make test` starts): the change
/// made while the server was down goes up once it is back, and the database holds no plaintext.
@Suite(
    "tokens sync through a server on PostgreSQL",
    .enabled(
        if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
        "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"))
struct SyncCLIOnPostgresTests {
    @Test("two machines converge; a change made while the server is down goes up when it is back; no plaintext in the database")
    func onPostgres() throws {
        var environment = ProcessInfo.processInfo.environment
        #expect(environment["PGHOST"] != nil, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        try TestDatabase.with(prefix: "tokens_sync_cli") { database, url in
            let serverEnvironment = ["TOKENS_SERVER_DATABASE_URL": url]
            let laptop = try TemporaryHome()
            let desktop = try TemporaryHome()

            let server = try ServerProcess(["--phase", "alpha"], environment: serverEnvironment)
            try SyncCLITests.setUpAndConverge(server, laptop: laptop.url, desktop: desktop.url)
            #expect(server.stop() == .exited(0))
            try SyncCLITests.offline(laptop: laptop.url)

            let port = try #require(server.baseURL.port)
            let again = try ServerProcess(["--phase", "alpha"], environment: serverEnvironment, port: port)
            #expect(try SyncCLITests.tokens(["sync"], laptop.url).stdout.contains("1 sent"))
            #expect(try SyncCLITests.tokens(["sync"], desktop.url).stdout.contains("1 received"))
            #expect(try SyncCLITests.accounts(laptop.url) == SyncCLITests.accounts(desktop.url))
            #expect(again.stop() == .exited(0))

            environment["PGDATABASE"] = database
            let dump = try ProcessRunner.run("pg_dump", ["--data-only", "--inserts"], environment: environment)
            try #require(dump.status == 0, "\(dump.stderr)")
            #expect(dump.stdout.contains("INSERT INTO public.entry"))
            for plaintext in ["JBSWY3DPEHPK3PXP", "GEZDGNBVGY3TQOJQ", "GitHub", "alice", "Bank", "bob", "made offline", "Work"] {
                #expect(!dump.stdout.contains(plaintext), "\(plaintext) is in the server's database")
            }
        }
    }

    @Test(
        "the server's database restored from a backup taken before two machines' changes: each notices, sends again what was lost, and a machine that joins afterwards has every change"
    )
    func restoredFromBackup() throws {
        try TestDatabase.with(prefix: "tokens_restore") { database, url in
            let serverEnvironment = ["TOKENS_SERVER_DATABASE_URL": url]
            let e = try TemporaryHome()
            let f = try TemporaryHome()
            let g = try TemporaryHome()
            let server = try ServerProcess(["--phase", "alpha"], environment: serverEnvironment)
            let address = server.baseURL.absoluteString
            for home in [e.url, f.url, g.url] { try SyncCLITests.tokens(["init"], home) }
            try SyncCLITests.tokens(["add", "-"], e.url, input: SyncCLITests.github + "\n")
            try SyncCLITests.tokens(["sync", "init", "--server", address, "--name", "E"], e.url)
            let code = try SyncCLITests.tokens(["sync", "code"], e.url).stdout
            try SyncCLITests.tokens(["sync", "join", "--server", address, "--name", "F"], f.url, input: code)

            let backup = try DatabaseBackup.take(of: database)
            defer { backup.remove() }
            try SyncCLITests.tokens(["edit", "github", "--note", "after the backup"], e.url)
            try SyncCLITests.tokens(["sync"], e.url)
            try SyncCLITests.tokens(["add", "-"], f.url, input: SyncCLITests.bank + "\n")
            try SyncCLITests.tokens(["sync"], f.url)
            try SyncCLITests.tokens(["sync"], e.url)

            let port = try #require(server.baseURL.port)
            #expect(server.stop() == .exited(0))
            try backup.restore()
            let again = try ServerProcess(["--phase", "alpha"], environment: serverEnvironment, port: port)
            #expect(try SyncCLITests.tokens(["sync"], e.url).stderr.contains("the server had lost changes"))
            #expect(try SyncCLITests.tokens(["sync"], f.url).stderr.contains("the server had lost changes"))
            try SyncCLITests.tokens(["sync"], e.url)
            try SyncCLITests.tokens(["sync", "join", "--server", address, "--name", "G"], g.url, input: code)
            let ends = try SyncCLITests.accounts(e.url)
            #expect(try SyncCLITests.accounts(f.url) == ends)
            #expect(try SyncCLITests.accounts(g.url) == ends)
            #expect(ends.joined().contains("after the backup") && ends.joined().contains("Bank"), "\(ends)")
            #expect(again.stop() == .exited(0))
        }
    }
}
