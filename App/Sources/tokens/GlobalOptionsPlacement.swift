/// Lets global options come before the subcommand (`tokens --phase dev list`), as users type
/// them, by moving them after it, where ArgumentParser reads them.
enum GlobalOptionsPlacement {
    static let optionsWithValue: Set<String> = ["--phase", "--config", "--log-level", "--passphrase-file"]

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
        // arguments[index] is the subcommand: put the global options right after it.
        return [arguments[index]] + leading + arguments[(index + 1)...]
    }
}
