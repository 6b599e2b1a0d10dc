import AppComposition
import ArgumentParser
import Foundation

/// Options every command takes: which phase, which config file, how to unlock.
struct GlobalOptions: ParsableArguments {
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

    /// Settings from flags, environment, config file and defaults.
    func settings() async throws -> AppSettings {
        var flags: [String: String] = [:]
        flags["phase"] = phase
        flags["log.level"] = logLevel
        let settings = try await SettingsLoader(
            flags: flags, configPath: config, environment: ProcessInfo.processInfo.environment
        ).load()
        LogSetup.bootstrap(level: settings.logLevel.value)
        CLILog.logger.debug(
            "phase \(settings.phase.value.rawValue) (\(settings.phase.source)), config file \(settings.configFile)\(settings.configFileExists ? "" : " (not present)")")
        return settings
    }

    /// Where the passphrase comes from.
    var passphraseReader: PassphraseReader {
        PassphraseReader(
            file: passphraseFile, environmentVariable: "TOKENS_PASSPHRASE",
            environment: ProcessInfo.processInfo.environment)
    }

    /// Runs `body` with the phase's container (the vault unlocked for ALPHA and REAL), and
    /// closes it afterwards, whatever happens, so the vault files are left complete.
    func withContainer<T>(_ body: (any AppContainer) async throws -> T) async throws -> T {
        let settings = try await settings()
        let container = try AppComposer.makeContainer(for: settings) {
            try passphraseReader.passphrase(prompt: "Passphrase for \(settings.vaultPath?.value ?? "the vault"): ")
        }
        do {
            let result = try await body(container)
            try container.close()
            return result
        } catch {
            try? container.close()
            throw error
        }
    }
}
