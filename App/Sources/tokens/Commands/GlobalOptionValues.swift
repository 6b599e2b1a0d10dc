import AppComposition
import AppConfiguration
import Domain
import Foundation

/// The values given for the global options (declared in GlobalOptions), and what every command
/// does with them.
struct GlobalOptionValues: Equatable, Sendable {
    var phase: String?
    var config: String?
    var logLevel: String?
    var passphraseFile: String?

    /// Settings from flags, environment, config file and defaults; starts the logs at their level.
    func settings() async throws -> AppSettings {
        var flags: [String: String] = [:]
        flags["phase"] = phase
        flags["log.level"] = logLevel
        let settings = try await SettingsLoader(
            flags: flags, configPath: config, environment: ProcessEnvironment.variables
        ).load()
        LogSetup.bootstrap(level: settings.logLevel.value)
        if settings.configFileExists {
            for warning in UnknownConfigKeys.warnings(inFileAt: settings.configFile) { CommandRunner.printError("warning: \(warning)") }
        }
        CLILog.logger.debug(
            "phase \(settings.phase.value.rawValue) (\(settings.phase.source)), config file \(settings.configFile)\(settings.configFileExists ? "" : " (not present)")"
        )
        return settings
    }

    /// Where the passphrase comes from.
    var passphraseReader: PassphraseReader {
        PassphraseReader(
            file: passphraseFile, environmentVariable: PassphraseSource.variable,
            environment: ProcessEnvironment.variables)
    }

    /// Runs `body` with the phase's container (the vault unlocked for ALPHA and REAL), and
    /// closes it afterwards, whatever happens, so the vault files are left complete.
    func withContainer<T>(_ body: (any AppContainer) async throws -> T) async throws -> T {
        try await withContainer { container, _ in try await body(container) }
    }

    /// `withContainer`, with the settings it was made for. The vault opens with the key
    /// `tokens unlock` kept, if any, unless `usingKeptKey` is false (passwd and unlock ask).
    func withContainer<T>(
        usingKeptKey: Bool = true, _ body: (any AppContainer, AppSettings) async throws -> T
    ) async throws -> T {
        let settings = try await settings()
        let container = try AppComposer.makeContainer(
            for: settings, passphrase: passphraseReader.source, kept: usingKeptKey ? KeptUnlock.enabled(for: settings) : nil,
            notice: { CommandRunner.printError($0) },
            asking: { try PassphraseReader.fromTerminal(prompt: "Passphrase for \(settings.vaultPath?.value ?? "the vault"): ") }
        )
        defer { ContainersKeptUntilExit.keep(container) }
        do {
            let before = container.unlockedVault == nil ? nil : try? await container.accountRepository.revision()
            let result = try await body(container, settings)
            if let before { await Self.backUpAfterChange(container, settings: settings, since: before) }
            try container.close()
            return result
        } catch {
            try? container.close()
            throw error
        }
    }

    /// The automatic backup: when the command changed the accounts (`before` is their revision
    /// when it started) and the settings' schedule calls for a copy. A copy that fails is a
    /// warning: the command itself succeeded.
    private static func backUpAfterChange(_ container: any AppContainer, settings: AppSettings, since before: AccountsRevision) async {
        guard let vault = container.unlockedVault?.container, (try? await container.accountRepository.revision()) != before else {
            return
        }
        do {
            if let report = try BackupComposer.afterChange(of: vault, settings: settings, now: container.clock.now()) {
                CLILog.logger.info("backed up \(report.accounts) accounts after a change to \(report.path)")
            }
        } catch {
            CommandRunner.printError("warning: the automatic backup failed: \(error)")
        }
    }
}
