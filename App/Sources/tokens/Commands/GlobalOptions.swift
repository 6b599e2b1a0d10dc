import AppComposition
import CommandLineKit
import Domain

/// Options every command takes, anywhere on the line: which phase, which config file, how to unlock.
enum GlobalOptions {
    static let arguments: [ArgumentSpec] = [
        .option("phase", help: "The phase: dev, alpha or real (beats TOKENS_PHASE and the config file)."),
        .option("config", help: "The config file (default: $XDG_CONFIG_HOME/tokens/config.json)."),
        .option("log-level", help: "Log level on standard error: trace, debug, info, notice, warning, error, critical."),
        .option(
            "passphrase-file", value: "file",
            help: "Read the vault passphrase from this file instead of asking (for scripts; TOKENS_PASSPHRASE also works)."),
    ]

    /// Every command's QUERY argument.
    static let query = ArgumentSpec.positional(
        "query", help: "Text in the issuer, account name or note; or an account's id, or its first 4 or more hex digits (list shows 8).")
}

extension GlobalOptionValues {
    /// The global options' values from a parsed command line.
    init(_ arguments: ParsedArguments) {
        self.init(
            phase: arguments.string("phase"), config: arguments.string("config"), logLevel: arguments.string("log-level"),
            passphraseFile: arguments.string("passphrase-file"))
    }
}

/// What a command that acts on one account reads: the global options and its QUERY.
struct AccountTarget {
    let global: GlobalOptionValues
    let query: String

    init(_ arguments: ParsedArguments) {
        global = GlobalOptionValues(arguments)
        query = arguments.string(GlobalOptions.query.key) ?? ""
    }

    /// Runs `body` with the phase's container and the one account matching the query.
    func withAccount<T>(_ body: (any AppContainer, Account) async throws -> T) async throws -> T {
        try await global.withContainer { container in
            try await body(container, try await AccountSelection.find(query, in: container))
        }
    }
}
