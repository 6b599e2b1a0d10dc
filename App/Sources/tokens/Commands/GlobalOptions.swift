import AppComposition
import ArgumentParser
import Foundation

/// Options every command takes: which phase and which config file.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The phase: dev, alpha or real (beats TOKENS_PHASE and the config file).")
    var phase: String?

    @Option(help: "The config file (default: $XDG_CONFIG_HOME/tokens/config.json).")
    var config: String?

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    /// Settings from flags, environment, config file and defaults.
    func settings() async throws -> AppSettings {
        var flags: [String: String] = [:]
        flags["phase"] = phase
        flags["log.level"] = logLevel
        return try await SettingsLoader(
            flags: flags, configPath: config, environment: ProcessInfo.processInfo.environment
        ).load()
    }

    /// The phase's container, with logging set up.
    func container() async throws -> any AppContainer {
        let settings = try await settings()
        LogSetup.bootstrap(level: settings.logLevel.value)
        return try AppComposer.makeContainer(for: settings)
    }
}
