/// What a command line asks for.
public enum Invocation: Sendable, Equatable {
    /// Run the command at `path` (names from the root) with these arguments.
    case run(path: [String], arguments: ParsedArguments)
    /// Print the help of the command at `path`.
    case help(path: [String])
    /// Print the root's version line.
    case version
    /// Print the completion script for a shell (bash, zsh or fish).
    case completionScript(shell: String)
}

/// Reads a command line against a root `CommandSpec`, by table lookups only.
///
/// Options may come anywhere after the program name, global ones before the subcommand too
/// (`tokens --phase dev list`); `--` ends the options; `-h`/`--help` anywhere asks for the help
/// of the command named so far; `help COMMAND…` too. A word that names a subcommand selects it
/// until the command's first positional; a command group with a default subcommand runs it when
/// none is named.
public struct CommandLineParser: Sendable {
    public let root: CommandSpec

    public init(root: CommandSpec) { self.root = root }

    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        if let help = try helpRequest(arguments) { return help }
        if root.version != nil, arguments == ["--version"] { return .version }
        if arguments.first == "--generate-completion-script" {
            guard arguments.count == 2, CompletionScript.shells.contains(arguments[1]) else {
                throw UsageError("--generate-completion-script takes one of: \(CompletionScript.shells.joined(separator: ", "))")
            }
            return .completionScript(shell: arguments[1])
        }
        var state = ParseState(root: root)
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                try state.word(argument, literal: onlyPositionals)
            } else if argument == "--" {
                onlyPositionals = true
            } else {
                let (spec, inline) = try state.option(argument)
                switch spec.kind {
                case .option:
                    let value: String
                    if let inline {
                        value = inline
                    } else {
                        guard index < arguments.count, arguments[index] == "-" || !arguments[index].hasPrefix("-") else {
                            throw UsageError("Missing value for '\(spec.synopsis)'")
                        }
                        value = arguments[index]
                        index += 1
                    }
                    state.values.add(value, for: spec.key)
                case .flag, .invertibleFlag:
                    guard inline == nil else { throw UsageError("'--\(spec.key)' takes no value") }
                    let value = argument.hasPrefix("--no-") ? "false" : "true"
                    if let earlier = state.values.string(spec.key), earlier != value {
                        throw UsageError("'--\(spec.key)' and '--no-\(spec.key)' contradict each other: give one")
                    }
                    state.values.add(value, for: spec.key)
                case .positional:
                    break
                }
            }
        }
        return try state.finish()
    }

    /// `--help`/`-h` anywhere before `--`, or `help COMMAND…` as the first command word (after
    /// global options, as in `tokens --phase real help sync`): the help of the named command.
    private func helpRequest(_ arguments: [String]) throws(UsageError) -> Invocation? {
        let options = arguments.prefix { $0 != "--" }
        if root.subcommand("help") == nil, let help = firstWord(options), options[help] == "help" {
            // `help COMMAND…` names commands only: a word that is none is a mistake, not the root's help.
            var command = root
            var path = [root.name]
            for word in commandWords(options[(help + 1)...]) {
                guard let next = command.subcommand(word) else { throw UsageError.unknownCommand(word, among: command) }
                command = next
                path.append(word)
            }
            return .help(path: path)
        }
        guard options.contains("--help") || options.contains("-h") else { return nil }
        return .help(path: commandPath(Array(options)))
    }

    /// The index of the first word that is not a global option or its value.
    private func firstWord(_ arguments: ArraySlice<String>) -> Int? {
        wordIndices(arguments).first
    }

    /// The words among `arguments` that are neither global options nor their values.
    private func commandWords(_ arguments: ArraySlice<String>) -> [String] {
        wordIndices(arguments).map { arguments[$0] }
    }

    private func wordIndices(_ arguments: ArraySlice<String>) -> [Int] {
        var indices: [Int] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            guard argument.hasPrefix("-") else {
                indices.append(index)
                index += 1
                continue
            }
            let name = argument.drop { $0 == "-" }
            let takesValue = root.globalArguments.contains { spec in
                spec.kind == .option && (spec.key == name || (argument.count == 2 && spec.short == name.first))
            }
            index += takesValue ? 2 : 1
        }
        return indices
    }

    /// The longest path of subcommand names among `words` (options and their values skipped).
    private func commandPath(_ words: [String]) -> [String] {
        var command = root
        var path = [root.name]
        for word in words where !word.hasPrefix("-") {
            guard let next = command.subcommand(word) else { continue }
            command = next
            path.append(word)
        }
        return path
    }
}

/// The command chosen so far and the values read for it.
private struct ParseState {
    let root: CommandSpec
    var path: [CommandSpec]
    var values = ParsedArguments()
    var words: [String] = []

    init(root: CommandSpec) {
        self.root = root
        path = [root]
    }

    var command: CommandSpec { path[path.count - 1] }

    /// A word: the next subcommand's name while one may follow, else a positional.
    mutating func word(_ word: String, literal: Bool) throws(UsageError) {
        if !literal, words.isEmpty, !command.subcommands.isEmpty {
            guard let next = command.subcommand(word) else { throw UsageError.unknownCommand(word, among: command) }
            path.append(next)
            return
        }
        words.append(word)
    }

    /// The option `argument` names (`--name`, `--name=value`, `--no-name`, `-x`) and its inline value.
    func option(_ argument: String) throws(UsageError) -> (ArgumentSpec, String?) {
        let candidates = known
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let parts = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let inline = parts.count == 2 ? String(parts[1]) : nil
            if let spec = candidates.first(where: { $0.key == name && !$0.isPositional }) { return (spec, inline) }
            if name.hasPrefix("no-"), let spec = candidates.first(where: { $0.key == name.dropFirst(3) && $0.kind == .invertibleFlag }) {
                return (spec, inline)
            }
        } else if argument.count == 2, let short = argument.last,
            let spec = candidates.first(where: { $0.short == short })
        {
            return (spec, nil)
        }
        throw UsageError("Unknown option '\(argument)'")
    }

    /// The arguments valid here: the global ones, this command's, and its default subcommand's.
    private var known: [ArgumentSpec] {
        var specs = root.globalArguments + command.arguments
        if let name = command.defaultSubcommand, let fallback = command.subcommand(name) { specs += fallback.arguments }
        return specs
    }

    /// The command to run, with its positionals assigned and checked.
    mutating func finish() throws(UsageError) -> Invocation {
        while let name = command.defaultSubcommand, let fallback = command.subcommand(name) {
            path.append(fallback)
        }
        if !command.subcommands.isEmpty {
            throw UsageError("Missing command: give one of \(command.subcommands.map(\.name).joined(separator: ", "))")
        }
        var remaining = words[...]
        for spec in command.arguments {
            guard case .positional(let required, let repeating) = spec.kind else { continue }
            if remaining.isEmpty {
                if required { throw UsageError("Missing expected argument '\(spec.synopsis)'") }
                continue
            }
            if repeating {
                for word in remaining { values.add(word, for: spec.key) }
                remaining = []
            } else {
                values.add(remaining.removeFirst(), for: spec.key)
            }
        }
        if let extra = remaining.first { throw UsageError("Unexpected argument '\(extra)'") }
        return .run(path: path.map(\.name), arguments: values)
    }
}
