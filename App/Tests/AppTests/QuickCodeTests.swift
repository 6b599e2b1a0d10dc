import ArgumentParser
import Testing

@testable import tokens

/// QuickCode reads `tokens code QUERY` without ArgumentParser; it must read exactly what
/// ArgumentParser reads, and leave everything else to it.
@Suite("The quick code path agrees with ArgumentParser")
struct QuickCodeTests {
    /// Command lines the quick path takes: the plain forms scripts use.
    static let taken: [[String]] = [
        ["code", "github"],
        ["code", "github", "--phase", "dev"],
        ["code", "--phase", "dev", "github"],
        ["--phase", "dev", "code", "github"],
        ["--phase=dev", "code", "github", "--at=59"],
        ["code", "github", "--at", "59", "--log-level", "debug"],
        ["--config", "/tmp/c.json", "--passphrase-file", "/tmp/p", "code", "Example Bank"],
        ["code", "github", "--phase", "real", "--config", "/x y/c.json", "--passphrase-file", "p", "--log-level", "trace"],
        ["code", "", "--phase", "dev"],
        ["code", "a=b", "--phase", ""],
    ]

    /// Command lines left to ArgumentParser: help, other options, odd shapes, bad values.
    static let left: [[String]] = [
        [], ["code"], ["list"], ["github"], ["code", "--help"], ["code", "-h", "github"], ["--help"], ["--version"],
        ["code", "--uri", "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP"], ["code", "github", "extra"],
        ["code", "--", "github"], ["code", "-x"], ["code", "github", "--phase"], ["code", "github", "--phase", "-v"],
        ["code", "github", "--phase", "dev", "--phase", "real"], ["code", "github", "--at", "-1"],
        ["code", "github", "--at", "soon"], ["--at", "5", "code", "github"], ["code", "github", "--unknown", "1"],
        ["show", "code"], ["config", "show"], ["code", "--phase=", "github"], ["code", "github", "--generate-completion-script", "bash"],
    ]

    @Test("takes the plain forms and reads them as ArgumentParser does", arguments: taken)
    func takenAsArgumentParserReadsThem(arguments: [String]) throws {
        let quick = try #require(QuickCode(arguments: arguments))
        let parsed = try Tokens.parseAsRoot(GlobalOptionsPlacement.normalize(arguments))
        let code = try #require(parsed as? Code)
        #expect(quick.query == code.query)
        #expect(quick.global == code.global.values)
        #expect(quick.unixTime == code.time.unixTime)
        #expect(code.uri == nil)
    }

    @Test("knows the same global options as GlobalOptionsPlacement")
    func sameGlobalOptions() {
        for option in GlobalOptionsPlacement.optionsWithValue {
            #expect(QuickCode(arguments: [option, "x", "code", "q"])?.query == "q", "\(option)")
        }
        #expect(QuickCode(arguments: ["--not-global", "x", "code", "q"]) == nil)
    }

    @Test("leaves everything else to ArgumentParser", arguments: left)
    func leftToArgumentParser(arguments: [String]) {
        #expect(QuickCode(arguments: arguments) == nil)
    }
}
