import Foundation
import IntegrationTestSupport
import Testing

/// `tokens import` and `tokens export` through the binary, on a real vault.
@Suite("Import and export through the binary")
struct ImportExportCLITests {
    static let uris = [
        RFC6238.vectors[0].uri, RFC6238.vectors[4].uri,
        "otpauth://hotp/Counter:me?secret=JBSWY3DPEHPK3PXP&counter=7",
        "otpauth://steam/Steam:gaben?secret=BASE32SECRET3232",
    ]

    /// A home with a REAL vault holding `uris`.
    func vault(with uris: [String]) throws -> TemporaryHome {
        let home = try TemporaryHome()
        #expect(try TokensProcess.run(["init"], home: home.url, environment: Vaults.environment()).status == 0)
        if !uris.isEmpty {
            #expect(try TokensProcess.run(["add"] + uris, home: home.url, environment: Vaults.environment()).status == 0)
        }
        return home
    }

    @Test("a dry run reports and writes nothing; the real run adds all, then skips duplicates")
    func dryRunThenImport() throws {
        let home = try vault(with: [])
        let file = home.url.appendingPathComponent("codes.txt")
        try Data((["# exported by hand", "otpauth://motp/Old:x?secret=JBSWY3DP"] + Self.uris).joined(separator: "\n").utf8).write(to: file)
        let folder = Vaults.path(phase: "real", home: home.url).deletingLastPathComponent()
        let before = try Vaults.snapshot(folder)
        let dry = try TokensProcess.run(["import", file.path, "--dry-run"], home: home.url, environment: Vaults.environment())
        #expect(dry.status == 0)
        #expect(dry.stdout.hasPrefix("otpauth:// URI list: would add 4, duplicates 0 (skipped), dropped 1"))
        #expect(dry.stdout.contains("! dropped line 2: type: 'motp' is not supported"))
        #expect(dry.stdout.contains("Dry run: nothing was written."))
        #expect(try Vaults.snapshot(folder) == before)

        let real = try TokensProcess.run(["import", file.path], home: home.url, environment: Vaults.environment())
        #expect(real.stdout.hasPrefix("otpauth:// URI list: added 4"))
        let again = try TokensProcess.run(
            ["import", "-", "--format", "otpauth"], home: home.url, environment: Vaults.environment(),
            input: Self.uris.joined(separator: "\n"))
        #expect(again.stdout.hasPrefix("otpauth:// URI list: added 0, duplicates 4 (skipped)"), "\(again.stdout)\(again.stderr)")
    }

    @Test("a file over --max-size is refused in one line before it is read, from a path or from standard input")
    func sizeLimit() throws {
        let home = try vault(with: [])
        let file = home.url.appendingPathComponent("big.txt")
        let big = String(repeating: "# padding line of an oversized export\n", count: 40_000)  // about 1.5 MiB
        try Data(big.utf8).write(to: file)
        let refused = try TokensProcess.run(["import", file.path, "--max-size", "1"], home: home.url, environment: Vaults.environment())
        #expect(refused.status == 1)
        #expect(refused.errorLines == ["tokens: \(file.path) is larger than 1 MiB, the import limit (raise it with --max-size)"])
        let piped = try TokensProcess.run(
            ["import", "-", "--max-size", "1"], home: home.url, environment: Vaults.environment(), input: big)
        #expect(piped.errorLines == ["tokens: standard input is larger than 1 MiB, the import limit (raise it with --max-size)"])
        let raised = try TokensProcess.run(["import", file.path, "--max-size", "2"], home: home.url, environment: Vaults.environment())
        #expect(raised.errorLines.last?.contains("import limit") != true, "\(raised.stderr)")
    }

    @Test("export → import into a new vault gives the same codes", arguments: ["otpauth", "aegis", "aegis-encrypted", "google"])
    func roundTrip(format: String) throws {
        let source = try vault(with: Self.uris)
        let file = source.url.appendingPathComponent("export")
        let environment = Vaults.environment().merging(["TOKENS_EXPORT_PASSWORD": "export pw", "TOKENS_IMPORT_PASSWORD": "export pw"]) {
            $1
        }
        let exported = try TokensProcess.run(["export", "--format", format, "-o", file.path], home: source.url, environment: environment)
        #expect(exported.status == 0, "\(exported.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(exported.stderr.contains("plaintext") == (format != "aegis-encrypted"))
        if format == "google" { #expect(exported.stderr.contains("left out Steam (gaben): Google Authenticator has no Steam accounts")) }

        let target = try vault(with: [])
        let imported = try TokensProcess.run(["import", file.path], home: target.url, environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        for vector in [RFC6238.vectors[0], RFC6238.vectors[4]] {
            let code = try TokensProcess.run(
                ["code", "--at", String(vector.time), vector.algorithm.lowercased()],
                home: target.url, environment: Vaults.environment())
            #expect(code.stdout == vector.code + "\n", "\(code.stderr)")
        }
        let counter = try TokensProcess.run(["code", "counter"], home: target.url, environment: Vaults.environment())
        let original = try TokensProcess.run(["code", "counter"], home: source.url, environment: Vaults.environment())
        #expect(counter.stdout == original.stdout)
    }

    @Test("export -o refuses an existing file unless --force; an encrypted export without its password names the export's own sources")
    func exportRefusals() throws {
        let home = try vault(with: Self.uris)
        let file = home.url.appendingPathComponent("export")
        try Data("keep me".utf8).write(to: file)
        let refused = try TokensProcess.run(
            ["export", "--format", "otpauth", "-o", file.path], home: home.url, environment: Vaults.environment())
        #expect(refused.status == 1 && refused.errorLines == ["tokens: \(file.path) exists: give --force to replace it"])
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me")
        let forced = try TokensProcess.run(
            ["export", "--format", "otpauth", "-o", file.path, "--force"], home: home.url, environment: Vaults.environment())
        #expect(forced.status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("otpauth://"))
        let other = home.url.appendingPathComponent("encrypted")
        let noPassword = try TokensProcess.run(
            ["export", "--format", "aegis-encrypted", "-o", other.path], home: home.url, environment: Vaults.environment())
        #expect(noPassword.status == 1)
        #expect(noPassword.errorLines == ["tokens: no password: run in a terminal, or use --password-file or TOKENS_EXPORT_PASSWORD"])
        #expect(!FileManager.default.fileExists(atPath: other.path))
    }

    @Test("a file that is not an export, or a wrong password: one line, nothing written")
    func badFiles() throws {
        let home = try vault(with: [])
        let junk = home.url.appendingPathComponent("junk")
        try Data("hello, world".utf8).write(to: junk)
        let unknown = try TokensProcess.run(["import", junk.path], home: home.url, environment: Vaults.environment())
        #expect(unknown.status == 1)
        #expect(unknown.errorLines.count == 1)
        #expect(unknown.stderr.contains("cannot tell the file's format"))
        let missing = try TokensProcess.run(["import", "/nonexistent/file"], home: home.url, environment: Vaults.environment())
        #expect(missing.errorLines == ["tokens: cannot read /nonexistent/file: no such file"])
        let badFormat = try TokensProcess.run(["import", junk.path, "--format", "palm"], home: home.url, environment: Vaults.environment())
        #expect(badFormat.status == 64)
    }
}
