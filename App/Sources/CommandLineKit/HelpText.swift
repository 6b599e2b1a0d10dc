/// The `--help` of a command, laid out for a terminal `columns` wide.
public enum HelpText {
    /// Where option and subcommand descriptions start.
    static let labelWidth = 26

    public static func render(_ path: [String], in root: CommandSpec, columns: Int = 80) -> String {
        let command = root.resolve(path)
        let width = max(columns, 40)
        var lines = wrap("OVERVIEW: " + command.abstract, width: width)
        if !command.discussion.isEmpty {
            lines.append("")
            for line in command.discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                let indent = String(line.prefix { $0 == " " })
                lines += wrap(String(line.dropFirst(indent.count)), width: width, first: indent, rest: indent)
            }
        }
        lines += ["", "USAGE: " + usage(path, command: command)]
        let positionals = command.arguments.filter(\.isPositional)
        if !positionals.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for spec in positionals { lines += row(spec.synopsis, spec.help, width: width) }
        }
        lines += ["", "OPTIONS:"]
        let options = (root.globalArguments + command.arguments).filter { !$0.isPositional }
        for spec in options { lines += row(label(spec), spec.help, width: width) }
        if path.count == 1, root.version != nil { lines += row("--version", "Show the version.", width: width) }
        lines += row("-h, --help", "Show help information.", width: width)
        if !command.subcommands.isEmpty {
            lines += ["", "SUBCOMMANDS:"]
            for sub in command.subcommands {
                lines += row(sub.name + (sub.name == command.defaultSubcommand ? " (default)" : ""), sub.abstract, width: width)
            }
            lines += ["", "  See '\(root.name) help <subcommand>' for detailed help."]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `tokens code [<options>] [<query>]`.
    static func usage(_ path: [String], command: CommandSpec) -> String {
        var parts = path
        if !command.subcommands.isEmpty {
            parts.append(command.defaultSubcommand == nil ? "<subcommand>" : "[<subcommand>]")
            return parts.joined(separator: " ")
        }
        parts.append("[<options>]")
        for spec in command.arguments where spec.isPositional {
            if case .positional(let required, _) = spec.kind { parts.append(required ? spec.synopsis : "[\(spec.synopsis)]") }
        }
        return parts.joined(separator: " ")
    }

    static func label(_ spec: ArgumentSpec) -> String {
        spec.short.map { "-\($0), " + spec.synopsis } ?? spec.synopsis
    }

    /// A label and its description: side by side, or the description below a long label.
    static func row(_ label: String, _ text: String, width: Int) -> [String] {
        let indent = String(repeating: " ", count: labelWidth + 2)
        let head = "  " + label
        if head.count < labelWidth + 1 {
            return wrap(text, width: width, first: head + String(repeating: " ", count: labelWidth + 2 - head.count), rest: indent)
        }
        return [head] + wrap(text, width: width, first: indent, rest: indent)
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word stands alone).
    /// A text that fits is kept as written (its runs of spaces too: columns in a discussion).
    public static func wrap(_ text: String, width: Int, first: String = "", rest: String = "") -> [String] {
        if first.count + text.count <= width { return [first + text] }
        var lines: [String] = []
        var line = first
        var empty = true
        for word in text.split(separator: " ") {
            if !empty, line.count + 1 + word.count > width {
                lines.append(line)
                line = rest
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines
    }
}

extension CommandSpec {
    /// The command at `path` (names from the root; the root's own name first).
    public func resolve(_ path: [String]) -> CommandSpec {
        var command = self
        for name in path.dropFirst() {
            guard let next = command.subcommand(name) else { break }
            command = next
        }
        return command
    }
}
