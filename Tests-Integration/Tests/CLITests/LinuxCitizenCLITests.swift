import Foundation
import IntegrationTestSupport
import Testing

/// `tokens` as a well-behaved Linux command: version, exit statuses, `config`, logs without secrets.
@Suite("tokens on Linux: version, exit statuses, config, logs")
struct LinuxCitizenCLITests {
    @Test("--version prints the name, the release and the vault format, as other CLIs do")
    func version() throws {
        let home = try TemporaryHome()
        let result = try TokensProcess.run(["--version"], home: home.url)
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^tokens \d+\.\d+\.\d+ \(vault format \d+\)\n$"#, options: .regularExpression) != nil)
    }

    @Test("--help lists every exit status")
    func helpListsExitStatuses() throws {
        let home = try TemporaryHome()
        let help = try TokensProcess.run(["--help"], home: home.url).stdout
        for line in [
            "0  success", "2  no account matches", "3  several accounts match", "4  wrong passphrase",
            "5  the vault is damaged", "64  the command line is wrong",
        ] {
            #expect(help.contains(line), "\(line)")
        }
        // One column for every meaning: the statuses are right-aligned.
        let table = help.components(separatedBy: "Exit status:\n")[1].components(separatedBy: "\n\n")[0].split(separator: "\n")
        #expect(table.count == 9)
        #expect(Set(table.map { $0.prefix { $0 == " " || $0.isNumber }.count }).count == 1, "\(table)")
    }

    @Test("one exit status table: README's, --help's and the man page's sections agree")
    func exitStatusTableAgrees() throws {
        let home = try TemporaryHome()
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let table = readme.components(separatedBy: "### Exit status")[1].components(separatedBy: "\n\n")[1]
        let rows = table.split(separator: "\n").dropFirst(2).map { row in
            row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(rows.count == 9)
        let help = try TokensProcess.run(["--help"], home: home.url).stdout
        let manual = try TokensProcess.run(["_manual"], home: home.url).stdout
        for row in rows {
            #expect(help.contains("  \(row[0])  \(row[1])\n"), "--help lacks \(row)")
            #expect(manual.contains(".It \(row[0])\n\(row[1])\n"), "the man page lacks \(row)")
        }
    }

    @Test("distinct exit statuses: usage 64, no match 2, ambiguous 3, wrong passphrase 4, damaged vault 5")
    func exitStatuses() throws {
        let home = try TemporaryHome()
        #expect(try TokensProcess.run(["list", "--bogus"], home: home.url).status == 64)
        #expect(try TokensProcess.run(["code", "nothing-like-this", "--phase", "dev"], home: home.url).status == 2)
        #expect(try TokensProcess.run(["code", "o", "--phase", "dev"], home: home.url).status == 3)

        let unlock = Vaults.environment()
        #expect(try TokensProcess.run(["init"], home: home.url, environment: unlock).status == 0)
        #expect(try TokensProcess.run(["add", Vaults.uri(issuer: "Kept")], home: home.url, environment: unlock).status == 0)
        let wrong = try TokensProcess.run(["list"], home: home.url, environment: Vaults.environment("not it"))
        #expect(wrong.status == 4)
        #expect(wrong.errorLines == ["tokens: wrong passphrase"])

        // A vault cut in half, then one with every 97th byte flipped: status 5, one line, files unchanged.
        let vault = Vaults.path(phase: "real", home: home.url)
        let intact = try Data(contentsOf: vault)
        var flipped = intact
        for index in stride(from: 0, to: flipped.count, by: 97) { flipped[index] ^= 0xFF }
        for (damage, expected) in [(intact.prefix(intact.count / 2), "is damaged"), (flipped, "not a Tokens vault")] {
            try Data(damage).write(to: vault)
            let damaged = try TokensProcess.run(["list"], home: home.url, environment: unlock)
            #expect(damaged.status == 5, "\(damaged.stderr)")
            #expect(damaged.errorLines.count == 1)
            #expect(damaged.errorLines.first?.contains(expected) == true, "\(damaged.stderr)")
            #expect(try Data(contentsOf: vault) == Data(damage))
        }
    }

    @Test("config show: each value and its source (flag, environment, file, default), no secret; config path")
    func configShowAndPath() throws {
        let home = try TemporaryHome()
        let configFolder = home.url.appendingPathComponent("config/tokens")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        let configFile = configFolder.appendingPathComponent("config.json")
        try Data(#"{"phase": "alpha", "clipboard": {"clear": 45}}"#.utf8).write(to: configFile)

        let path = try TokensProcess.run(["config", "path"], home: home.url)
        #expect(path.stdout == configFile.path + "\n")
        let given = try TokensProcess.run(["config", "path", "--config", "/nonexistent/tokens.json"], home: home.url)
        #expect(given.status == 1)
        #expect(given.errorLines.count == 1)

        let passphrase = "a passphrase that must never be printed"
        let shown = try TokensProcess.run(
            ["--log-level", "error", "config", "show", "--json"], home: home.url,
            environment: ["TOKENS_LOCK_IDLE": "60", "TOKENS_PASSPHRASE": passphrase])
        #expect(shown.status == 0, "\(shown.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let settings = try #require(document["settings"] as? [[String: String]])
        let byKey = Dictionary(uniqueKeysWithValues: settings.map { ($0["key"] ?? "", $0) })
        #expect(byKey["phase"]?["value"] == "alpha")
        #expect(byKey["phase"]?["source"] == "config file \(configFile.path)")
        #expect(byKey["log.level"]?["source"] == "flag --log-level")
        #expect(byKey["lock.idle"]?["value"] == "60")
        #expect(byKey["lock.idle"]?["source"] == "environment TOKENS_LOCK_IDLE")
        #expect(byKey["clipboard.clear"]?["value"] == "45")
        #expect(byKey["codes.next"]?["source"] == "default")
        #expect(byKey["alpha.vault.path"]?["value"] == home.url.path + "/data/tokens-alpha/vault.sqlite")
        #expect(document["configFile"] as? String == configFile.path)
        #expect(!shown.stdout.contains(passphrase) && !shown.stderr.contains(passphrase))

        let table = try TokensProcess.run(["config"], home: home.url, environment: ["TOKENS_PASSPHRASE": passphrase])
        #expect(table.stdout.contains("lock.idle"))
        #expect(table.stdout.contains("(config file \(configFile.path))"))
        #expect(!table.stdout.contains(passphrase))
    }

    @Test("a misspelled config key warns with the nearest key; a config file that is not JSON is one line with line and column")
    func configMistakes() throws {
        let home = try TemporaryHome()
        let configFile = home.url.appendingPathComponent("config.json")
        try Data(#"{"phase": "dev", "lockk": {"idle": 60}}"#.utf8).write(to: configFile)
        let warned = try TokensProcess.run(["--config", configFile.path, "list"], home: home.url)
        #expect(warned.status == 0)
        #expect(
            warned.errorLines == [
                "tokens: warning: unknown config key 'lockk.idle' in \(configFile.path) is ignored (did you mean 'lock.idle'?)"
            ])
        try Data("{\"phase\": \"dev\",\n \"lock\": {\"idle\": x}}".utf8).write(to: configFile)
        let broken = try TokensProcess.run(["--config", configFile.path, "list"], home: home.url)
        #expect(broken.status == 1)
        #expect(broken.errorLines == ["tokens: cannot read config file \(configFile.path): not valid JSON at line 2, column 19"])
    }

    @Test("the logs of add, import and code at trace level hold no secret, issuer, account name or code")
    func logsHoldNoSecrets() throws {
        let home = try TemporaryHome()
        let secret = "KRUGS4ZANFZSAYJAONSWG4TFOQQGC3TEEBZWK3DGEBTWC3LF"
        let issuer = "Confidentialbank"
        let account = "hidden.person@example.org"
        let environment = Vaults.environment().merging(["TOKENS_LOG_LEVEL": "trace"]) { $1 }
        var logs = ""
        logs += try TokensProcess.run(["init"], home: home.url, environment: environment).stderr
        let uri = "otpauth://totp/\(issuer):\(account)?secret=\(secret)&issuer=\(issuer)"
        let added = try TokensProcess.run(["add", uri], home: home.url, environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        logs += added.stderr
        let file = home.url.appendingPathComponent("import.txt")
        try Data("otpauth://totp/Otherissuer:other.person?secret=\(secret)\n".utf8).write(to: file)
        let imported = try TokensProcess.run(["import", file.path], home: home.url, environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        logs += imported.stderr
        let code = try TokensProcess.run(["code", "confidential"], home: home.url, environment: environment)
        #expect(code.status == 0, "\(code.stderr)")
        logs += code.stderr

        // Something was logged (the test would pass vacuously otherwise)…
        #expect(logs.contains("debug tokens.cli"))
        #expect(logs.contains("unlocked the real vault"))
        // …and none of it is account data.
        let code6 = code.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for forbidden in [
            secret, secret.lowercased(), issuer, issuer.lowercased(), account, "Otherissuer", "other.person", code6,
            Vaults.passphrase,
        ] {
            #expect(!logs.contains(forbidden), "the logs contain \(forbidden)")
        }
    }
}
