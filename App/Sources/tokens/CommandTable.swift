import ArgumentParser

/// Every command of `tokens` with how to run a parsed value of it (`Tokens.configuration` lists
/// the same types for the parser; AppTests check that the two agree).
///
/// Running a parsed command through this table needs no `as? any AsyncParsableCommand`: such a
/// cast makes the Swift runtime scan every protocol conformance in the binary (about 8 500),
/// while `as! C` to the concrete type compares two metadata pointers.
enum CommandTable {
    /// A command type and how to run a parsed value of it.
    struct Entry: Sendable {
        let type: any ParsableCommand.Type
        let run: @Sendable (consuming any ParsableCommand) async throws -> Void
    }

    static let entries: [Entry] = [
        entry(Interactive.self), entry(List.self), entry(Code.self), entry(Add.self), entry(Edit.self),
        entry(Remove.self), entry(URI.self), entry(QR.self), entry(Import.self), entry(Export.self),
        entry(Init.self), entry(Passwd.self), entry(Config.self), entry(Config.Show.self), entry(Config.Path.self),
    ]

    /// How to run `command`; a type not in the table (ArgumentParser's own `help`) runs as
    /// ArgumentParser would run it.
    static func runner(for command: any ParsableCommand) -> () async throws -> Void {
        let type = type(of: command)
        if let entry = entries.first(where: { $0.type == type }) {
            return { try await entry.run(command) }
        }
        return {
            var command = command
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        }
    }

    private static func entry<C: AsyncParsableCommand>(_ type: C.Type) -> Entry {
        Entry(type: type) { command in
            var command = command as! C
            try await command.run()
        }
    }
}
