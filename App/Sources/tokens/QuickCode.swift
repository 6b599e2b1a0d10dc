/// `tokens code QUERY` read without ArgumentParser, for scripts that call it once per code.
///
/// Building ArgumentParser's command tree costs a one-shot run several milliseconds (its
/// reflection looks protocol conformances up across the whole binary), more than computing the
/// code. So the plain form is read here: `code`, one QUERY, the global options (before or
/// after `code`) and `--at`, each once and with a value. Anything else (help, `--uri`, `--`,
/// an unknown or repeated option, a value that looks like an option or is empty after `=`,
/// a bad `--at`) returns nil and goes to ArgumentParser, which also words every usage error.
/// Both paths end in `Code.code(matching:global:unixTime:)`; AppTests check that they read
/// the same values.
struct QuickCode: Equatable {
    let query: String
    let global: GlobalValues
    let unixTime: Int64?

    init?(arguments: [String]) {
        var values: [String: String] = [:]
        var query: String?
        var sawCode = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                if !sawCode {
                    guard argument == "code" else { return nil }
                    sawCode = true
                } else {
                    guard query == nil else { return nil }
                    query = argument
                }
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            // --at belongs to `code`: ArgumentParser reads it only after the subcommand.
            guard GlobalOptionsPlacement.optionsWithValue.contains(name) || (name == "--at" && sawCode), values[name] == nil else { return nil }
            let value: String
            if parts.count == 2 {
                // ArgumentParser reads `--phase=` as a missing value and takes the next argument.
                guard !parts[1].isEmpty else { return nil }
                value = String(parts[1])
            } else {
                guard index < arguments.count else { return nil }
                value = arguments[index]
                index += 1
            }
            guard !value.hasPrefix("-") else { return nil }
            values[name] = value
        }
        guard sawCode, let query else { return nil }
        var unixTime: Int64?
        if let at = values["--at"] {
            guard let seconds = Int64(at), seconds >= 0 else { return nil }
            unixTime = seconds
        }
        self.query = query
        self.unixTime = unixTime
        global = GlobalValues(
            phase: values["--phase"], config: values["--config"], logLevel: values["--log-level"],
            passphraseFile: values["--passphrase-file"])
    }

    /// Prints the code, as `tokens code` does.
    func run() async throws {
        let code = try await Code.code(matching: query, global: global, unixTime: unixTime)
        StandardStreams.writeLine(code)
    }
}
