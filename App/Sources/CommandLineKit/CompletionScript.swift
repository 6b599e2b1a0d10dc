/// Completion scripts for bash, zsh and fish: subcommand names and each command's options.
public enum CompletionScript {
    public static let shells = ["bash", "zsh", "fish"]

    public static func render(_ root: CommandSpec, shell: String) -> String {
        switch shell {
        case "zsh": zsh(root)
        case "fish": fish(root)
        default: bash(root)
        }
    }

    /// Each command's path (`tokens config`) and what may be typed there.
    private static func candidates(_ root: CommandSpec) -> [(path: String, words: [String])] {
        root.tree().map { path, command in
            let options = (root.globalArguments + command.arguments).flatMap(optionWords)
            return (path.joined(separator: " "), command.subcommands.map(\.name) + options + ["--help"])
        }
    }

    private static func optionWords(_ spec: ArgumentSpec) -> [String] {
        switch spec.kind {
        case .option, .flag: ["--" + spec.key]
        case .invertibleFlag: ["--" + spec.key, "--no-" + spec.key]
        case .positional: []
        }
    }

    /// `"tokens config") path="tokens config" ;;` for every subcommand, as a shell case.
    private static func descents(_ root: CommandSpec, variable: String) -> [String] {
        root.tree().dropFirst().map { path, _ in
            let full = path.joined(separator: " ")
            return "            \"\(full)\") \(variable)=\"\(full)\" ;;"
        }
    }

    private static func bash(_ root: CommandSpec) -> String {
        var lines = [
            "# bash completion for \(root.name)", "_\(root.name)() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" command=\"\(root.name)\" words i",
            "    for ((i = 1; i < COMP_CWORD; i++)); do", "        case \"$command ${COMP_WORDS[i]}\" in",
        ]
        lines += descents(root, variable: "command")
        lines += ["        esac", "    done", "    case \"$command\" in"]
        for (path, words) in candidates(root) { lines.append("        \"\(path)\") words=\"\(words.joined(separator: " "))\" ;;") }
        lines += [
            "    esac", "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))", "}", "complete -o default -F _\(root.name) \(root.name)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func zsh(_ root: CommandSpec) -> String {
        var lines = [
            "#compdef \(root.name)", "_\(root.name)() {", "    local command=\"\(root.name)\" i", "    local -a candidates",
            "    for ((i = 2; i < CURRENT; i++)); do", "        case \"$command ${words[i]}\" in",
        ]
        lines += descents(root, variable: "command")
        lines += ["        esac", "    done", "    case \"$command\" in"]
        for (path, words) in candidates(root) { lines.append("        \"\(path)\") candidates=(\(words.joined(separator: " "))) ;;") }
        lines += ["    esac", "    compadd -- $candidates", "    _files", "}", "_\(root.name) \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fish(_ root: CommandSpec) -> String {
        var lines = ["# fish completion for \(root.name)"]
        for spec in root.globalArguments { lines += fishOption(root.name, spec, condition: nil) }
        for (path, command) in root.tree() {
            let names = Array(path.dropFirst())
            let here =
                names.isEmpty
                ? "__fish_use_subcommand"
                : "__fish_seen_subcommand_from \(names.last!); and not __fish_seen_subcommand_from \(command.subcommands.map(\.name).joined(separator: " "))"
            for sub in command.subcommands {
                lines.append("complete -c \(root.name) -n '\(here)' -a \(sub.name) -d '\(quoted(sub.abstract))'")
            }
            if !names.isEmpty {
                for spec in command.arguments {
                    lines += fishOption(root.name, spec, condition: "__fish_seen_subcommand_from \(names.last!)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fishOption(_ name: String, _ spec: ArgumentSpec, condition: String?) -> [String] {
        let guardText = condition.map { " -n '\($0)'" } ?? ""
        let short = spec.short.map { " -s \($0)" } ?? ""
        switch spec.kind {
        case .option: return ["complete -c \(name)\(guardText)\(short) -l \(spec.key) -r -d '\(quoted(spec.help))'"]
        case .flag: return ["complete -c \(name)\(guardText)\(short) -l \(spec.key) -d '\(quoted(spec.help))'"]
        case .invertibleFlag:
            return [
                "complete -c \(name)\(guardText) -l \(spec.key) -d '\(quoted(spec.help))'",
                "complete -c \(name)\(guardText) -l no-\(spec.key) -d '\(quoted(spec.help))'",
            ]
        case .positional: return []
        }
    }

    /// Text inside fish's single quotes.
    private static func quoted(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "'" || character == "\\" { result += "\\" }
            result.append(character)
        }
        return result
    }
}
