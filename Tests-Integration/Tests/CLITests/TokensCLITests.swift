import DataLayer
import Domain
import Foundation
import IntegrationTestSupport
import Testing

/// The `tokens` binary as a process, as users and scripts run it.
@Suite("tokens as a process")
struct TokensCLITests {
    @Test("list --json parses, lists the demo accounts, and carries no secret")
    func listJSON() throws {
        let home = try TemporaryHome()
        let result = try TokensProcess.run(["list", "--json", "--at", "59", "--phase", "dev"], home: home.url)
        #expect(result.status == 0)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["id"] as? String }) == Set(DemoAccounts.all.map(\.id.uuidString)))
        #expect(entries.allSatisfy { $0["secret"] == nil })
        for account in DemoAccounts.all { #expect(!result.stdout.contains(account.secret.base32)) }
        let github = try #require(entries.first { $0["issuer"] as? String == "GitHub" })
        #expect(github["code"] as? String == "287082")
        #expect(github["secondsRemaining"] as? Int == 1)
    }

    @Test("code --at of demo accounts equals RFC 6238's independently computed values")
    func demoCodes() throws {
        let home = try TemporaryHome()
        // GitHub's demo secret is RFC 6238's SHA1 seed: 94287082 at t=59, so 287082 in 6 digits.
        let github = try TokensProcess.run(["code", "github", "--at", "59", "--phase", "dev"], home: home.url)
        #expect(github.status == 0)
        #expect(github.stdout == "287082\n")
        // Amazon's is the SHA256 seed with 8 digits.
        let amazon = try TokensProcess.run(["--phase", "dev", "code", "amazon", "--at", "1111111109"], home: home.url)
        #expect(amazon.stdout == "68084774\n")
        let steam = try TokensProcess.run(["code", "steam", "--at", "90", "--phase", "dev"], home: home.url)
        #expect(steam.stdout == "DTVB3\n")
    }

    @Test("tokens code github --phase dev prints a 6-digit code")
    func codeNow() throws {
        let home = try TemporaryHome()
        let result = try TokensProcess.run(["code", "github", "--phase", "dev"], home: home.url)
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^[0-9]{6}\n$"#, options: .regularExpression) != nil)
    }

    @Test("code --uri matches RFC 6238 and touches no store", arguments: RFC6238.vectors)
    func codeFromURI(vector: RFC6238.Vector) throws {
        let home = try TemporaryHome()
        let result = try TokensProcess.run(["code", "--uri", vector.uri, "--at", String(vector.time)], home: home.url)
        #expect(result.status == 0)
        #expect(result.stdout == vector.code + "\n")
        #expect(home.files().isEmpty)
    }

    @Test("- reads URIs from standard input, so secrets stay out of argv: add -, code --uri -")
    func urisFromStandardInput() throws {
        let home = try TemporaryHome()
        let vector = RFC6238.vectors[0]
        let code = try TokensProcess.run(["code", "--uri", "-", "--at", String(vector.time)], home: home.url, input: vector.uri + "\n")
        #expect(code.stdout == vector.code + "\n", "\(code.stderr)")
        let added = try TokensProcess.run(
            ["add", "-", "--phase", "dev"], home: home.url,
            input: Vaults.uri(issuer: "FromStdin1", secret: "KRSXG5CTMVRXEZLU") + "\n\n"
                + Vaults.uri(issuer: "FromStdin2", secret: "MFRGGZDFMZTWQ2LK") + "\n")
        #expect(added.stdout == "Added FromStdin1 (me)\nAdded FromStdin2 (me)\n", "\(added.stderr)")
        let empty = try TokensProcess.run(["code", "--uri", "-"], home: home.url, input: "")
        #expect(empty.status == 1)
        #expect(empty.errorLines == ["tokens: no otpauth:// URI on standard input"])
    }

    @Test("DEV writes nothing to disk, even after add")
    func devWritesNothing() throws {
        let home = try TemporaryHome()
        let added = try TokensProcess.run(["add", "otpauth://totp/New:me?secret=KRSXG5CTMVRXEZLU", "--phase", "dev"], home: home.url)
        #expect(added.status == 0)
        #expect(added.stdout == "Added New (me)\n")
        _ = try TokensProcess.run(["list", "--phase", "dev"], home: home.url)
        #expect(home.files().isEmpty)
    }

    @Test("uri prints a Key URI that gives the same code")
    func uriRoundTrip() throws {
        let home = try TemporaryHome()
        let uri = try TokensProcess.run(["uri", "amazon", "--phase", "dev"], home: home.url).stdout
            .trimmingCharacters(in: .newlines)
        #expect(uri.hasPrefix("otpauth://totp/Amazon:shopper@example.com?secret="))
        let viaURI = try TokensProcess.run(["code", "--uri", uri, "--at", "59"], home: home.url)
        #expect(viaURI.stdout == "46119246\n")
    }

    @Test("the phase comes from TOKENS_PHASE and the config file; REAL is the default; no silent DEV")
    func phases() throws {
        let home = try TemporaryHome()
        let byDefault = try TokensProcess.run(["list"], home: home.url)
        #expect(byDefault.status == 1)
        let realVault = Vaults.path(phase: "real", home: home.url).path
        #expect(byDefault.errorLines == ["tokens: no vault at \(realVault): create one with `tokens init`"])
        let config = home.url.appendingPathComponent("config/tokens")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"phase": "alpha"}"#.utf8).write(to: config.appendingPathComponent("config.json"))
        let fromFile = try TokensProcess.run(["list"], home: home.url)
        #expect(fromFile.status == 1)
        #expect(fromFile.stderr.contains(Vaults.path(phase: "alpha", home: home.url).path))
        #expect(fromFile.stderr.contains("create one with `tokens --phase alpha init`"), "\(fromFile.stderr)")
        let environmentWins = try TokensProcess.run(["list"], home: home.url, environment: ["TOKENS_PHASE": "dev"])
        #expect(environmentWins.status == 0)
        let flagWins = try TokensProcess.run(["list", "--phase", "dev"], home: home.url, environment: ["TOKENS_PHASE": "real"])
        #expect(flagWins.status == 0)
    }

    @Test("qr draws a square QR code; export --format google --qr draws each batch")
    func qr() throws {
        let home = try TemporaryHome()
        let drawn = try TokensProcess.run(["qr", "github", "--phase", "dev"], home: home.url)
        #expect(drawn.status == 0)
        let lines = drawn.stdout.split(separator: "\n")
        #expect(lines.first == "GitHub (octocat)")
        let code = lines.dropFirst()
        #expect(code.count >= 15)
        #expect(Set(code.map(\.count)).count == 1)
        #expect(code.first?.count == 2 * code.count - 1)  // width = size + 8; lines = (size + 8 + 1) / 2
        #expect(code.allSatisfy { $0.allSatisfy { " ▀▄█".contains($0) } })
        let batches = try TokensProcess.run(["export", "--format", "google", "--qr", "--phase", "dev"], home: home.url)
        #expect(batches.stdout.hasPrefix("Batch 1 of 1: scan with Google Authenticator"))
        #expect(batches.stderr.contains("left out Steam (gaben)"))
        let wrong = try TokensProcess.run(["export", "--format", "otpauth", "--qr", "--phase", "dev"], home: home.url)
        #expect(wrong.status == 64)
    }

    @Test("--help of tokens and of every command prints and exits 0")
    func help() throws {
        let home = try TemporaryHome()
        let commands = ["code", "list", "add", "edit", "rm", "uri", "qr", "import", "export", "init", "passwd", "config"]
        for arguments in [["--help"]] + commands.map({ [$0, "--help"] }) {
            let help = try TokensProcess.run(arguments, home: home.url)
            #expect(help.status == 0, "\(arguments)")
            #expect(help.stdout.contains("USAGE"), "\(arguments)")
        }
    }

    @Test("without a terminal, plain `tokens` prints a listing instead of the screen")
    func notATerminal() throws {
        let home = try TemporaryHome()
        let result = try TokensProcess.run(["--phase", "dev"], home: home.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("GitHub") && !result.stdout.contains("\u{1B}["))
    }

    /// Bad input of every kind: exit status, and exactly one line on stderr naming the problem.
    static let badInputs: [(arguments: [String], status: Int32, message: String)] = [
        (["code", "--uri", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PX1"], 1, "secret: invalid Base32 character at position 16"),
        (["code", "--uri", "otpauth://hotp/A:b?secret=JBSWY3DP"], 1, "counter: an hotp URI needs a counter"),
        (["code", "--uri", "https://example.com"], 1, "not a Key URI"),
        (["add", "not a uri", "--phase", "dev"], 1, "not a Key URI"),
        (["add", "otpauth://totp/A:b?secret=JBSWY3DP&period=0", "--phase", "dev"], 1, "period: 0 is not allowed"),
        (["code", "nothing-matches", "--phase", "dev"], 2, "no account matches 'nothing-matches'"),
        (["code", "e", "--phase", "dev"], 3, "accounts match 'e'"),
        (["list", "--phase", "prod"], 1, "invalid phase 'prod' (from flag --phase)"),
        (["list", "--config", "/nonexistent/tokens.json"], 1, "config file not found"),
        (["list", "--at=-5"], 64, "--at must be a Unix time of 0 or later"),
        (["list", "--at", "soon"], 64, "soon"),
        (["code"], 64, "give a QUERY or --uri"),
        (["--bogus"], 64, "Unknown option '--bogus'"),
        (["frobnicate", "x"], 64, "frobnicate"),
    ]

    @Test("bad input: non-zero exit, one line on stderr, nothing on stdout, no stack trace", arguments: badInputs)
    func badInput(arguments: [String], status: Int32, message: String) throws {
        let home = try TemporaryHome()
        let result = try TokensProcess.run(arguments, home: home.url)
        #expect(result.status == status)
        #expect(result.errorLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("tokens: "))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains("Fatal error"))
    }
}
