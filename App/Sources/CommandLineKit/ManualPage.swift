/// The man page (mdoc) of a command tree: every command with its arguments, then the caller's
/// own sections (ENVIRONMENT, FILES, EXIT STATUS…).
public enum ManualPage {
    public static func render(_ root: CommandSpec, section: Int = 1, date: String, extraSections: String) -> String {
        var lines = [
            ".Dd \(date)", ".Dt \(root.name.uppercased()) \(section)", ".Os", ".Sh NAME", ".Nm \(root.name)",
            ".Nd \(escaped(root.abstract))", ".Sh SYNOPSIS", ".Nm",
        ]
        if !root.subcommands.isEmpty { lines.append(root.defaultSubcommand == nil ? ".Ar subcommand" : ".Op Ar subcommand") }
        lines.append(".Op Ar options")
        lines.append(".Sh DESCRIPTION")
        lines += paragraphs(root.discussion)
        lines += [".Bl -tag -width 6n"]
        for spec in root.globalArguments { lines += item(spec) }
        for sub in root.subcommands { lines += command(sub, path: [root.name]) }
        lines.append(".El")
        return lines.joined(separator: "\n") + "\n" + extraSections
    }

    private static func command(_ spec: CommandSpec, path: [String]) -> [String] {
        var lines = [".It Em \(spec.name)", escaped(spec.abstract)]
        lines += paragraphs(spec.discussion)
        let own = spec.arguments
        if own.isEmpty, spec.subcommands.isEmpty { return lines }
        lines.append(".Bl -tag -width 6n")
        for argument in own { lines += item(argument) }
        for sub in spec.subcommands { lines += command(sub, path: path + [spec.name]) }
        lines.append(".El")
        return lines
    }

    private static func item(_ spec: ArgumentSpec) -> [String] {
        let head: String
        switch spec.kind {
        case .option: head = ".It Fl -\(spec.key) Ar \(spec.valueName)"
        case .flag: head = ".It Fl -\(spec.key)"
        case .invertibleFlag: head = ".It Fl -\(spec.key) , Fl -no-\(spec.key)"
        case .positional: head = ".It Ar \(spec.valueName)"
        }
        return [spec.short.map { head.replacingFirst(".It Fl", with: ".It Fl \($0) , Fl") } ?? head, escaped(spec.help)]
    }

    private static func paragraphs(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " }) {
                lines.append(".Pp")
                continue
            }
            // An indented line (a row of a table in the text) starts a line of its own.
            if line.first == " " { lines.append(".br") }
            lines.append(escaped(String(line.drop { $0 == " " })))
        }
        return lines
    }

    /// Text safe as an mdoc text line: backslashes escaped, no leading `.` or `'` (requests).
    public static func escaped(_ text: String) -> String {
        var result = ""
        for character in text { result += character == "\\" ? "\\e" : String(character) }
        if let first = result.first, first == "." || first == "'" { result = "\\&" + result }
        return result
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard hasPrefix(target) else { return self }
        return replacement + dropFirst(target.count)
    }
}
