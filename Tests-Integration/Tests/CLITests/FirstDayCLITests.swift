import Foundation
import IntegrationTestSupport
import Testing

/// A new user's first day: duplicates and ids.
@Suite("A new user's first day")
struct FirstDayCLITests {
    struct Listed: Decodable {
        let id: String
        let issuer: String
    }

    func listed(_ home: borrowing TemporaryHome) throws -> [Listed] {
        let list = try TokensProcess.run(["list", "--json"], home: home.url, environment: Vaults.environment())
        return try JSONDecoder().decode([Listed].self, from: Data(list.stdout.utf8))
    }

    @Test("the same URI twice adds one account and names it; --allow-duplicate adds a twin, and ids tell the twins apart")
    func duplicatesAndIDs() throws {
        let home = try TemporaryHome()
        let unlock = Vaults.environment()
        #expect(try TokensProcess.run(["init"], home: home.url, environment: unlock).status == 0)
        let uri = Vaults.uri(issuer: "GitHub")
        #expect(try TokensProcess.run(["add", uri], home: home.url, environment: unlock).stdout == "Added GitHub (me)\n")
        let first = try #require(try listed(home).first)
        let again = try TokensProcess.run(["add", uri], home: home.url, environment: unlock)
        #expect(again.status == 0)
        #expect(
            again.stdout.hasPrefix(
                "Skipped GitHub (me): already there as GitHub (me) (id \(first.id.prefix(8).lowercased())); nothing was added"))
        #expect(try listed(home).count == 1)

        let twin = try TokensProcess.run(["add", "--allow-duplicate", uri], home: home.url, environment: unlock)
        #expect(twin.stdout == "Added GitHub (me)\n", "\(twin.stderr)")
        let ids = try listed(home).map { String($0.id.prefix(8)).lowercased() }
        #expect(ids.count == 2)
        let ambiguous = try TokensProcess.run(["code", "github"], home: home.url, environment: unlock)
        #expect(ambiguous.status == 3)
        #expect(ids.allSatisfy { ambiguous.stderr.contains("[\($0)]") }, "\(ambiguous.stderr)")
        let table = try TokensProcess.run(["list"], home: home.url, environment: unlock).stdout
        #expect(ids.allSatisfy(table.contains), "\(table)")

        for command in [["code"], ["uri"], ["edit", "--note", "twin"]] {
            let result = try TokensProcess.run(command.prefix(1) + [ids[1]] + command.dropFirst(), home: home.url, environment: unlock)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let removed = try TokensProcess.run(["rm", ids[0], "--yes"], home: home.url, environment: unlock)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try listed(home).map { String($0.id.prefix(8)).lowercased() } == [ids[1]])

        // The form the ambiguity message prints, "Issuer (account)", is a query too: it picks one
        // of two accounts of one issuer.
        for account in ["gaben", "alice"] {
            let uri = Vaults.uri(issuer: "Steam", account: account, secret: account == "gaben" ? "JBSWY3DPEHPK3PXP" : "KRSXG5CTMVRXEZLU")
            #expect(try TokensProcess.run(["add", uri], home: home.url, environment: unlock).status == 0)
        }
        let steam = try TokensProcess.run(["code", "Steam"], home: home.url, environment: unlock)
        #expect(steam.status == 3 && steam.stderr.contains("Steam (gaben) ["), "\(steam.stderr)")
        let named = try TokensProcess.run(["code", "Steam (gaben)"], home: home.url, environment: unlock)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try TokensProcess.run(["code", "GitHub (me)"], home: home.url, environment: unlock).status == 0)
    }

    @Test("an imported entry skipped as a duplicate names the account it duplicates, though its issuer differs")
    func importNamesTheDuplicate() throws {
        let home = try TemporaryHome()
        let unlock = Vaults.environment()
        #expect(try TokensProcess.run(["init"], home: home.url, environment: unlock).status == 0)
        #expect(try TokensProcess.run(["add", Vaults.uri(issuer: "Kept")], home: home.url, environment: unlock).status == 0)
        let id = try #require(try listed(home).first).id.prefix(8).lowercased()
        let file = home.url.appendingPathComponent("export.txt")
        try Data((Vaults.uri(issuer: "Renamed") + "\n").utf8).write(to: file)
        let report = try TokensProcess.run(["import", file.path], home: home.url, environment: unlock)
        #expect(report.stdout.contains("= Renamed (me) (already there as Kept (me) (id \(id)): skipped)"), "\(report.stdout)")
    }

    @Test("import says why a file cannot be read, what a picture or a KeePass file is, and prints JSON or one line on request")
    func importMessages() throws {
        let home = try TemporaryHome()
        func run(_ arguments: [String]) throws -> ProcessResult {
            try TokensProcess.run(["import"] + arguments + ["--phase", "dev"], home: home.url)
        }
        let missing = try run([home.url.appendingPathComponent("nothing.json").path])
        #expect(missing.errorLines == ["tokens: cannot read \(home.url.appendingPathComponent("nothing.json").path): no such file"])
        let folder = try run([home.url.path])
        #expect(folder.errorLines == ["tokens: cannot read \(home.url.path): it is a folder, not a file"])

        let png = home.url.appendingPathComponent("qr.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 100)).write(to: png)
        let picture = try run([png.path])
        #expect(picture.status == 1)
        #expect(picture.errorLines.count == 1, "\(picture.stderr)")
        #expect(picture.stderr.hasPrefix("tokens: cannot read the picture: the picture is damaged"), "\(picture.stderr)")
        let gif = home.url.appendingPathComponent("qr.gif")
        try Data(Array("GIF89a".utf8) + Array(repeating: 0, count: 100)).write(to: gif)
        #expect(
            try run([gif.path]).errorLines == [
                "tokens: this looks like an image (GIF); Tokens reads QR codes in PNG and JPEG pictures only: convert it first, e.g. `convert FILE code.png` (ImageMagick), then `tokens import code.png`"
            ])

        let list = home.url.appendingPathComponent("list.txt")
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let uris = (0..<50).map { Vaults.uri(issuer: "Bulk\($0)", secret: "KRSXG5CTMVRXEZ\(letters[$0 / 26])\(letters[$0 % 26])") }
        try Data(uris.joined(separator: "\n").utf8).write(to: list)
        let summary = try run([list.path, "--quiet"])
        #expect(summary.stdout.split(separator: "\n").count == 1, "\(summary.stdout)")
        let json = try run([list.path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.hasPrefix("{"))
        let long = try run([list.path])
        #expect(long.stdout.contains("more added (--json lists every one)"), "\(long.stdout)")
    }
}
