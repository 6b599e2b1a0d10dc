/// Lets global options come before the subcommand (`tokens --phase dev list`), as users type
/// them, by moving them after it, where ArgumentParser reads them.
enum GlobalOptionsPlacement {
    static let optionsWithValue: Set<String> = ["--phase", "--config", "--log-level", "--passphrase-file"]

    /// Command groups and their subcommands, which take the global options themselves.
    static let nestedSubcommands: [String: Set<String>] = ["config": ["show", "path"]]

    static func normalize(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            guard optionsWithValue.contains(name) else { break }
            leading.append(argument)
            if !argument.contains("="), index + 1 < arguments.count {
                leading.append(arguments[index + 1])
                index += 1
            }
            index += 1
        }
        guard !leading.isEmpty, index < arguments.count, !arguments[index].hasPrefix("-") else { return arguments }
        // arguments[index] is the subcommand (and, for a group, the next one its subcommand):
        // put the global options right after it.
        var end = index + 1
        if let nested = nestedSubcommands[arguments[index]], end < arguments.count, nested.contains(arguments[end]) {
            end += 1
        }
        return Array(arguments[index..<end]) + leading + arguments[end...]
    }
}
