import CommandLineKit
import Testing

@testable import tokens

/// The command tree `Tokens.spec` declares and the table that runs it agree, and command lines
/// read as users type them.
@Suite("Command table")
struct CommandTableTests {
    /// Every command that runs: the tree's leaves, by path.
    static let leaves = Tokens.spec.tree().filter { $0.command.subcommands.isEmpty }.map(\.path)

    @Test("every command of the tree has the type that runs it, declared with the same name")
    func everyLeafRuns() throws {
        #expect(Self.leaves.count == 32)
        for path in Self.leaves {
            let command = try #require(CommandTable.command(at: path), "\(path) has no type")
            #expect(command.spec.name == path.last, "\(path) runs \(command)")
        }
        #expect(CommandTable.command(at: ["tokens", "nothing"]) == nil)
    }

    @Test("no two commands at one level share a name, and no command is named like a global option")
    func uniqueNames() {
        for (path, command) in Tokens.spec.tree() {
            let names = command.subcommands.map(\.name)
            #expect(Set(names).count == names.count, "\(path)")
            let keys = (Tokens.spec.globalArguments + command.arguments).map(\.key)
            #expect(Set(keys).count == keys.count, "\(path) declares an argument twice")
        }
    }

    /// Command lines scripts use for `tokens code`, with what they must read.
    static let codeLines: [([String], String, GlobalOptionValues, Int64?)] = [
        (["code", "github"], "github", GlobalOptionValues(), nil),
        (["code", "github", "--phase", "dev"], "github", GlobalOptionValues(phase: "dev"), nil),
        (["--phase", "dev", "code", "github"], "github", GlobalOptionValues(phase: "dev"), nil),
        (["--phase=dev", "code", "github", "--at=59"], "github", GlobalOptionValues(phase: "dev"), 59),
        (["code", "github", "--at", "59", "--log-level", "debug"], "github", GlobalOptionValues(logLevel: "debug"), 59),
        (
            ["--config", "/x y/c.json", "--passphrase-file", "p", "code", "Example Bank"], "Example Bank",
            GlobalOptionValues(config: "/x y/c.json", passphraseFile: "p"), nil
        ),
        (["code", "", "--phase", "dev"], "", GlobalOptionValues(phase: "dev"), nil),
        (["code", "--", "-github"], "-github", GlobalOptionValues(), nil),
    ]

    @Test("tokens code reads its query, the global options anywhere and --at", arguments: codeLines)
    func codeLine(arguments: [String], query: String, global: GlobalOptionValues, unixTime: Int64?) throws {
        guard case .run(let path, let parsed) = try Tokens.parser.parse(arguments) else {
            Issue.record("\(arguments) did not parse to a command")
            return
        }
        #expect(path == ["tokens", "code"])
        let code = try Code(parsed)
        #expect(code.query == query)
        #expect(code.global == global)
        #expect(code.unixTime == unixTime)
        #expect(code.uri == nil)
    }

    @Test(
        "bad command lines are usage errors",
        arguments: [
            ["code"], ["code", "github", "--uri", "x"], ["code", "github", "--at", "-1"], ["code", "github", "--at", "soon"],
            ["code", "github", "extra"], ["code", "github", "--phase"], ["github"], ["edit", "x"], ["import", "f", "--max-size", "0"],
            ["export"], ["export", "--format", "otpauth", "--qr"], ["list", "--json=1"],
        ])
    func usageErrors(arguments: [String]) {
        #expect(throws: UsageError.self, "\(arguments)") {
            guard case .run(let path, let parsed) = try Tokens.parser.parse(arguments) else { return }
            _ = try CommandTable.command(at: path)?.init(parsed)
        }
    }
}
