/// A command as plain data: its name, what it does, what it takes and its subcommands.
///
/// Parsing, `--help`, the man page and the completion scripts are all made from this one
/// declaration, with no run-time reflection: a one-shot command pays for reading its own
/// arguments and nothing more (no scan of the binary's protocol conformances, no command tree
/// built by mirrors).
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var subcommands: [CommandSpec]
    /// The subcommand run when none is named (`tokens` runs `show`).
    public var defaultSubcommand: String?
    /// Options every command of the tree takes, anywhere on the line (declared on the root).
    public var globalArguments: [ArgumentSpec]
    /// What `--version` prints (root only; nil: no `--version`).
    public var version: String?

    public init(
        _ name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
        subcommands: [CommandSpec] = [], defaultSubcommand: String? = nil, globalArguments: [ArgumentSpec] = [],
        version: String? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.globalArguments = globalArguments
        self.version = version
    }

    /// The subcommand called `name`.
    public func subcommand(_ name: String) -> CommandSpec? { subcommands.first { $0.name == name } }

    /// Every command of the tree with its path of names, depth first (the root first).
    public func tree(_ path: [String] = []) -> [(path: [String], command: CommandSpec)] {
        let own = path + [name]
        return [(own, self)] + subcommands.flatMap { $0.tree(own) }
    }
}

/// One thing a command takes: an option with a value, a flag, or a positional argument.
public struct ArgumentSpec: Sendable, Equatable {
    /// The shapes an argument can take.
    public enum Kind: Sendable, Equatable {
        /// `--name VALUE` or `--name=VALUE`.
        case option
        /// `--name` (true when given).
        case flag
        /// `--name` or `--no-name` (nil when neither is given).
        case invertibleFlag
        /// A word in its place; `repeating` takes every remaining word.
        case positional(required: Bool, repeating: Bool)
    }

    /// The key the parsed value is read by: the long name without dashes, or a positional's name.
    public let key: String
    public let kind: Kind
    public let short: Character?
    public let valueName: String
    public let help: String

    /// `--key VALUE` (and `-short VALUE`).
    public static func option(_ key: String, short: Character? = nil, value: String? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(key: key, kind: .option, short: short, valueName: value ?? key, help: help)
    }

    /// `--key`, true when given.
    public static func flag(_ key: String, short: Character? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(key: key, kind: .flag, short: short, valueName: "", help: help)
    }

    /// `--key` or `--no-key`.
    public static func invertibleFlag(_ key: String, help: String) -> ArgumentSpec {
        ArgumentSpec(key: key, kind: .invertibleFlag, short: nil, valueName: "", help: help)
    }

    /// A positional argument; `repeating` takes all the remaining words (it comes last).
    public static func positional(_ key: String, required: Bool = true, repeating: Bool = false, help: String) -> ArgumentSpec {
        ArgumentSpec(key: key, kind: .positional(required: required, repeating: repeating), short: nil, valueName: key, help: help)
    }

    public var isPositional: Bool {
        if case .positional = kind { return true }
        return false
    }

    /// How the argument is written in usage lines and errors: `--phase <phase>`, `<query>`.
    public var synopsis: String {
        switch kind {
        case .option: "--\(key) <\(valueName)>"
        case .flag: "--\(key)"
        case .invertibleFlag: "--[no-]\(key)"
        case .positional(_, let repeating): "<\(valueName)>" + (repeating ? " ..." : "")
        }
    }
}
