import Foundation
import IntegrationTestSupport
import Testing

/// Text from websites and other apps never drives the terminal: `add` refuses it, `import`
/// cleans it and says so, and every output path (list, uri, reports, errors) escapes whatever
/// it quotes.
@Suite("Hostile account text through the binary")
struct HostileTextCLITests {
    @Test("add refuses each hostile name in one escaped line, naming the field", arguments: HostileText.corpus.map(\.text))
    func addRefuses(_ text: String) throws {
        let home = try TemporaryHome()
        let result = try TokensProcess.run(["add", HostileText.uri(text), "--phase", "dev"], home: home.url)
        #expect(result.status == 1)
        #expect(result.errorLines == ["tokens: issuer: control characters and bidirectional overrides are not allowed"])
        #expect(!HostileText.hasControl(result.stdout + result.stderr))
    }

    @Test("errors that quote the command line or a file escape it")
    func errorsEscape() throws {
        let home = try TemporaryHome()
        let query = HostileText.corpus[0].text
        let result = try TokensProcess.run(["code", query, "--phase", "dev"], home: home.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Evil\\x1B]52;c;"), "\(result.stderr.debugDescription)")
        #expect(!HostileText.hasControl(result.stderr))
        let uri = try TokensProcess.run(["code", "--uri", "otpauth://\u{1B}[2J/A:b?secret=JBSWY3DP"], home: home.url)
        #expect(uri.status == 1)
        #expect(uri.stderr.contains("'\\x1B[2J'") && !HostileText.hasControl(uri.stderr), "\(uri.stderr.debugDescription)")
    }

    @Test("import keeps the accounts without the characters, says so in the dry run; list, uri and --json stay clean")
    func importCleans() throws {
        let home = try TemporaryHome()
        _ = try TokensProcess.run(["init"], home: home.url, environment: Vaults.environment())
        let secrets = [
            "JBSWY3DPEHPK3PXP", "KRSXG5CTMVRXEZLU", "MFRGGZDFMZTWQ2LK", "GEZDGNBVGY3TQOJQ", "MZXW6YTBOI======",
            "NBSWY3DPO5XXE3DE", "ONSWG4TFOQ======", "OBQXG43XN5ZGI===",
        ]
        let lines =
            zip(HostileText.corpus, secrets).map { HostileText.uri($0.0.text, secret: $0.1) }
            + ["otpauth://\u{1B}]0;pwned\u{07}/A:b?secret=JBSWY3DP"]
        let file = home.url.appendingPathComponent("hostile.txt")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)

        let dry = try TokensProcess.run(["import", file.path, "--dry-run"], home: home.url, environment: Vaults.environment())
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("otpauth:// URI list: would add 8, duplicates 0 (skipped), dropped 1"), "\(dry.stdout)")
        #expect(
            dry.stdout.contains(
                "~ line 1: Evil]52;c;\(HostileText.clipboardPayload)Bank (Evil]52;c;\(HostileText.clipboardPayload)Bank): control characters or bidi overrides removed from issuer, account"
            ), "\(dry.stdout)")
        #expect(dry.stdout.contains("! dropped line 9: type: '\\x1B]0;pwned\\x07' is not supported"), "\(dry.stdout)")
        #expect(!HostileText.hasControl(dry.stdout + dry.stderr))

        let real = try TokensProcess.run(["import", file.path], home: home.url, environment: Vaults.environment())
        #expect(real.stdout.hasPrefix("otpauth:// URI list: added 8"), "\(real.stdout)\(real.stderr)")
        for command in [["list"], ["list", "--json"], ["uri", "bidi"], ["code", "title", "--at", "59"]] {
            let result = try TokensProcess.run(command, home: home.url, environment: Vaults.environment())
            #expect(!HostileText.hasControl(result.stdout + result.stderr), "\(command): \(result.stdout.debugDescription)")
        }
        let listed = try TokensProcess.run(["list"], home: home.url, environment: Vaults.environment()).stdout
        #expect(listed.contains("Bidilapyap") && listed.contains("Clear[2J[H") && listed.contains("Lone"))
    }
}
