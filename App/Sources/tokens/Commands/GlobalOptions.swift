import AppComposition
import AppConfiguration
import ArgumentParser

/// Options every command takes: which phase, which config file, how to unlock.
struct GlobalOptions: ParsableArguments {
    /// The help of every command's QUERY argument.
    static let queryHelp = ArgumentHelp(
        "Text in the issuer, account name or note; or an account's id, or its first 4 or more hex digits (list shows 8).",
        valueName: "query")

    @Option(help: "The phase: dev, alpha or real (beats TOKENS_PHASE and the config file).")
    var phase: String?

    @Option(help: "The config file (default: $XDG_CONFIG_HOME/tokens/config.json).")
    var config: String?

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    @Option(help: ArgumentHelp(
        "Read the vault passphrase from this file instead of asking (for scripts; TOKENS_PASSPHRASE also works).",
        valueName: "file"))
    var passphraseFile: String?

    /// The values given, apart from the parser.
    var values: GlobalValues {
        GlobalValues(phase: phase, config: config, logLevel: logLevel, passphraseFile: passphraseFile)
    }

    /// Settings from flags, environment, config file and defaults.
    func settings() async throws -> AppSettings { try await values.settings() }

    /// Where the passphrase comes from.
    var passphraseReader: PassphraseReader { values.passphraseReader }

    /// Runs `body` with the phase's container; see `GlobalValues.withContainer`.
    func withContainer<T>(_ body: (any AppContainer) async throws -> T) async throws -> T {
        try await values.withContainer(body)
    }
}
