import Foundation
import IntegrationTestSupport
import Testing

/// The installed binary carries ICU's data for the root and English locales only
/// (App/Scripts/icu-data-subset.py). Tokens formats nothing by locale, so what it prints must
/// not depend on the user's locale; these run it under several.
@Suite(
    "the installed binary in any locale",
    .enabled(if: ProcessInfo.processInfo.environment["TOKENS_INSTALL_PREFIX"] != nil, "set by make test-install"))
struct InstalledLocaleTests {
    let installed = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TOKENS_INSTALL_PREFIX"] ?? "/nonexistent")
        .appendingPathComponent("bin/tokens").path

    static let locales = ["C.UTF-8", "de_DE.UTF-8", "tr_TR.UTF-8", "ja_JP.UTF-8", "ar_EG.UTF-8"]

    /// What a user sees of a vault with accented, Turkish, Japanese and Arabic names, in one locale.
    func transcript(_ binary: String, locale: String, home: URL) throws -> [String] {
        let environment = TokensProcess.environment(
            home: home, extra: Vaults.environment().merging(["LANG": locale, "LC_ALL": locale]) { $1 })
        let commands: [[String]] = [
            ["list", "--at", "59"], ["code", "strasse", "--at", "59"], ["code", "ISTANBUL", "--at", "59"],
            ["code", "--uri", "otpauth://totp/東京:名前?secret=\(Vaults.secret(9))", "--at", "59"],
            ["list", "--json", "--at", "59"], ["export", "--format", "otpauth"], ["--help"], ["config", "show"],
        ]
        return try commands.map { arguments in
            let result = try ProcessRunner.run(binary, arguments + ["--phase", "alpha", "--log-level", "error"], environment: environment)
            let shown = result.stdout.replacingOccurrences(of: home.path, with: "HOME")
            return "\(arguments.joined(separator: " ")) → \(result.status)\n\(shown)\(result.stderr)"
        }
    }

    @Test("every locale prints what C.UTF-8 prints, and what the debug build with all of ICU's data prints")
    func sameInEveryLocale() throws {
        let home = try TemporaryHome()
        let environment = TokensProcess.environment(home: home.url, extra: Vaults.environment())
        #expect(try ProcessRunner.run(installed, ["init", "--phase", "alpha"], environment: environment).status == 0)
        let uris = [
            "otpauth://totp/Stra%C3%9Fe%20%C3%9Cbung:j%C3%BCrgen?secret=\(Vaults.secret(1))",
            "otpauth://totp/%C4%B0stanbul:%C4%B1%C5%9F%C4%B1k?secret=\(Vaults.secret(2))",
            "otpauth://totp/%E6%9D%B1%E4%BA%AC:%E5%90%8D%E5%89%8D?secret=\(Vaults.secret(3))",
            "otpauth://totp/%D8%A8%D9%86%D9%83:%D8%A7%D8%B3%D9%85?secret=\(Vaults.secret(4))",
        ]
        let added = try ProcessRunner.run(installed, ["add", "--phase", "alpha"] + uris, environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        let reference = try transcript(installed, locale: "C.UTF-8", home: home.url)
        #expect(reference[1].contains("→ 0"), "\(reference[1])")
        #expect(reference[2].contains("→ 0"), "\(reference[2])")
        for locale in Self.locales {
            let lines = try transcript(installed, locale: locale, home: home.url)
            let full = try transcript(TokensProcess.binary, locale: locale, home: home.url)
            for (mine, (theirs, debug)) in zip(lines, zip(reference, full)) {
                #expect(mine == theirs, "\(locale): \(mine)\nC.UTF-8: \(theirs)")
                #expect(mine == debug, "\(locale): \(mine)\ndebug build: \(debug)")
            }
        }
    }

    @Test("the installed binary has no German day names; the toolchain's own ICU data has (the control)")
    func carriesRootAndEnglishOnly() throws {
        // ICU stores strings as UTF-16: "Donnerstag" is in de.res only.
        let german = Data("Donnerstag".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let english = Data("Thursday".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let binary = try Data(contentsOf: URL(fileURLWithPath: installed))
        #expect(binary.range(of: german) == nil)
        #expect(binary.range(of: english) != nil)
        let folders = try InstallTests.toolchainLibraryFolders()
        let archive = try #require(
            folders.map { $0 + "/linux/lib_FoundationICU.a" }.first { FileManager.default.fileExists(atPath: $0) })
        #expect(try Data(contentsOf: URL(fileURLWithPath: archive)).range(of: german) != nil)
    }
}
