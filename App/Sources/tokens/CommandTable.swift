import CommandLineKit

/// Every command of `tokens`, by its path of names: the tree `Tokens.spec` declares and the
/// type that runs each leaf. A command is found by comparing names, never by a protocol cast
/// (which makes the Swift runtime scan every conformance in the binary, about 8 500).
enum CommandTable {
    /// A subcommand of `tokens`: a command, or a group of commands.
    struct Group: Sendable {
        let spec: CommandSpec
        let commands: [any TokensCommand.Type]
    }

    static let groups: [Group] = [
        leaf(Interactive.self), leaf(List.self), leaf(Code.self), leaf(Add.self), leaf(Edit.self), leaf(Remove.self),
        leaf(URI.self), leaf(QR.self), leaf(Import.self), leaf(Export.self), leaf(Init.self), leaf(Passwd.self),
        leaf(Unlock.self), leaf(Lock.self), leaf(History.self), leaf(Restore.self), leaf(Doctor.self),
        Group(spec: Config.spec, commands: [Config.Show.self, Config.Path.self]),
        Group(spec: Sync.spec, commands: Sync.commands),
        Group(spec: Backup.spec, commands: [Backup.Now.self, Backup.List.self, Backup.Verify.self, Backup.Restore.self]),
    ]

    /// The type that runs the command at `path` (`["tokens", "config", "show"]`).
    static func command(at path: [String]) -> (any TokensCommand.Type)? {
        guard path.count >= 2, let group = groups.first(where: { $0.spec.name == path[1] }) else { return nil }
        let name = path.count == 2 ? group.spec.name : path[2]
        return group.commands.first { $0.spec.name == name }
    }

    private static func leaf(_ command: any TokensCommand.Type) -> Group {
        Group(spec: command.spec, commands: [command])
    }
}
