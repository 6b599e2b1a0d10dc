import ArgumentParser
import Testing

@testable import tokens

/// The command tree as the runtime meets it at start-up: names given, not derived from type
/// names (ArgumentParser's `String(describing: Self.self)` costs a one-shot run milliseconds of
/// conformance lookups), and every command runnable through `CommandTable`.
@Suite("Command table")
struct CommandTableTests {
    /// Every command below `root`, depth first.
    static func tree(_ root: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap { tree($0) }
    }

    @Test("every command names itself in its configuration")
    func explicitNames() {
        for command in Self.tree(Tokens.self) {
            #expect(command.configuration.commandName != nil, "\(command) has no commandName")
        }
    }

    @Test("the table holds exactly the commands of the tree, each once")
    func tableMatchesTree() {
        let tree = Self.tree(Tokens.self).dropFirst().map(ObjectIdentifier.init)
        let table = CommandTable.entries.map { ObjectIdentifier($0.type) }
        #expect(Set(table).count == table.count, "a command is in the table twice")
        #expect(Set(tree) == Set(table))
    }

    @Test("a parsed command runs through its own entry", arguments: [["config", "path", "--phase", "dev"], ["list", "--phase", "dev"]])
    func runsParsedCommand(arguments: [String]) throws {
        let command = try Tokens.parseAsRoot(arguments)
        let entry = CommandTable.entries.first { $0.type == type(of: command) }
        #expect(entry != nil)
    }
}
