import AppComposition
import AppConfiguration
import Foundation
import Testing

@Suite("Settings: flag > environment > config file > default")
struct SettingsLoaderTests {
    /// A temporary config file holding `json`, removed after the test.
    @discardableResult
    static func withConfigFile<T>(_ json: String, _ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-settings-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return try await body(path)
    }

    @Test("defaults to REAL, its vault under the XDG data home, when nothing chooses a phase")
    func defaults() async throws {
        let settings = try await SettingsLoader(environment: ["HOME": "/nonexistent"]).load()
        #expect(settings.phase == Sourced(.real, from: .default))
        #expect(settings.logLevel == Sourced(.warning, from: .default))
        #expect(settings.vaultPath == Sourced("/nonexistent/.local/share/tokens/vault.sqlite", from: .default))
        #expect(settings.configFile == "/nonexistent/.config/tokens/config.json")
        #expect(!settings.configFileExists)
    }

    @Test("the config file beats the default; XDG_CONFIG_HOME locates it")
    func fileBeatsDefault() async throws {
        try await Self.withConfigFile(#"{"phase": "alpha", "log": {"level": "error"}}"#) { path in
            let settings = try await SettingsLoader(configPath: path, environment: [:]).load()
            #expect(settings.phase == Sourced(.alpha, from: .file(path)))
            #expect(settings.logLevel == Sourced(.error, from: .file(path)))
        }
        let xdg = SettingsLoader(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])
        #expect(xdg.defaultConfigPath == "/x/tokens/config.json")
    }

    @Test("the environment beats the config file")
    func environmentBeatsFile() async throws {
        try await Self.withConfigFile(#"{"phase": "alpha"}"#) { path in
            let settings = try await SettingsLoader(configPath: path, environment: ["TOKENS_PHASE": "REAL"]).load()
            #expect(settings.phase == Sourced(.real, from: .environment("TOKENS_PHASE")))
            // The phase's own log level applies when none is configured.
            #expect(settings.logLevel == Sourced(.warning, from: .default))
        }
    }

    @Test("every setting can come from its TOKENS_ variable, each named in SettingsLoader.keys")
    func everyKeyFromTheEnvironment() async throws {
        let environment = [
            "TOKENS_PHASE": "real", "TOKENS_LOG_LEVEL": "debug", "TOKENS_REAL_VAULT_PATH": "/v/real.sqlite",
            "TOKENS_LOCK_IDLE": "60", "TOKENS_CLIPBOARD_CLEAR": "10", "TOKENS_CODES_NEXT": "3", "HOME": "/h",
            "TOKENS_SYNC_INTERVAL": "60", "TOKENS_SYNC_CA_FILE": "/etc/ca.pem", "TOKENS_UNLOCK_TIMEOUT": "0",
            "TOKENS_UNLOCK_IDLE": "keep", "TOKENS_REAL_BACKUP_FOLDER": "/b/real", "TOKENS_BACKUP_AUTO": "0",
            "TOKENS_BACKUP_KEEP_LAST": "3", "TOKENS_BACKUP_KEEP_DAYS": "7", "TOKENS_BACKUP_KEEP_MONTHS": "0",
            "TOKENS_BACKUP_STALE": "2", "TOKENS_CODES_OFFSET": "auto", "TOKENS_CLOCK_WARN": "30",
        ]
        let settings = try await SettingsLoader(environment: environment).load()
        #expect(settings.phase == Sourced(.real, from: .environment("TOKENS_PHASE")))
        #expect(settings.logLevel == Sourced(.debug, from: .environment("TOKENS_LOG_LEVEL")))
        #expect(settings.vaultPath == Sourced("/v/real.sqlite", from: .environment("TOKENS_REAL_VAULT_PATH")))
        #expect(settings.idleLockSeconds == Sourced(60, from: .environment("TOKENS_LOCK_IDLE")))
        #expect(settings.clipboardClearSeconds == Sourced(10, from: .environment("TOKENS_CLIPBOARD_CLEAR")))
        #expect(settings.nextCodeSeconds == Sourced(3, from: .environment("TOKENS_CODES_NEXT")))
        #expect(settings.sync.intervalSeconds == Sourced(60, from: .environment("TOKENS_SYNC_INTERVAL")))
        #expect(settings.sync.caFilePath == "/etc/ca.pem")
        #expect(settings.unlockSeconds == Sourced(0, from: .environment("TOKENS_UNLOCK_TIMEOUT")))
        #expect(settings.idleLockForgetsKeptKey == Sourced(false, from: .environment("TOKENS_UNLOCK_IDLE")))
        #expect(settings.backupFolder == Sourced("/b/real", from: .environment("TOKENS_REAL_BACKUP_FOLDER")))
        #expect(settings.backup.autoSeconds == Sourced(0, from: .environment("TOKENS_BACKUP_AUTO")))
        #expect(settings.backup.keepLast == Sourced(3, from: .environment("TOKENS_BACKUP_KEEP_LAST")))
        #expect(settings.backup.keepDays == Sourced(7, from: .environment("TOKENS_BACKUP_KEEP_DAYS")))
        #expect(settings.backup.keepMonths == Sourced(0, from: .environment("TOKENS_BACKUP_KEEP_MONTHS")))
        #expect(settings.backup.staleDays == Sourced(2, from: .environment("TOKENS_BACKUP_STALE")))
        #expect(settings.clock.codesOffset == Sourced(.auto, from: .environment("TOKENS_CODES_OFFSET")))
        #expect(settings.clock.warnSeconds == Sourced(30, from: .environment("TOKENS_CLOCK_WARN")))
        let alpha = try await SettingsLoader(
            environment: ["TOKENS_PHASE": "alpha", "TOKENS_ALPHA_VAULT_PATH": "/v/a", "TOKENS_ALPHA_BACKUP_FOLDER": "/b/a"]
        ).load()
        #expect(alpha.vaultPath == Sourced("/v/a", from: .environment("TOKENS_ALPHA_VAULT_PATH")))
        #expect(alpha.backupFolder == Sourced("/b/a", from: .environment("TOKENS_ALPHA_BACKUP_FOLDER")))
        #expect(
            Set(environment.keys.filter { $0.hasPrefix("TOKENS_") } + ["TOKENS_ALPHA_VAULT_PATH", "TOKENS_ALPHA_BACKUP_FOLDER"])
                == Set(SettingsLoader.keys.map(SettingsLoader.environmentName)))
    }

    @Test("a flag beats everything")
    func flagBeatsAll() async throws {
        try await Self.withConfigFile(#"{"phase": "alpha"}"#) { path in
            let settings = try await SettingsLoader(
                flags: ["phase": "dev", "log.level": "trace"], configPath: path,
                environment: ["TOKENS_PHASE": "real", "TOKENS_LOG_LEVEL": "error"]
            ).load()
            #expect(settings.phase == Sourced(.dev, from: .flag("--phase")))
            #expect(settings.logLevel == Sourced(.trace, from: .flag("--log-level")))
        }
    }

    @Test("ALPHA and REAL keep their vaults and backups apart; each path can be configured; DEV has none")
    func vaultPaths() async throws {
        let environment = ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]
        let alpha = try await SettingsLoader(flags: ["phase": "alpha"], environment: environment).load()
        #expect(alpha.vaultPath == Sourced("/data/tokens-alpha/vault.sqlite", from: .default))
        let real = try await SettingsLoader(flags: ["phase": "real"], environment: environment).load()
        #expect(real.vaultPath == Sourced("/data/tokens/vault.sqlite", from: .default))
        #expect(alpha.backupFolder == Sourced("/data/tokens-alpha/backups", from: .default))
        #expect(real.backupFolder == Sourced("/data/tokens/backups", from: .default))
        let dev = try await SettingsLoader(flags: ["phase": "dev"], environment: environment).load()
        #expect(dev.vaultPath == nil && dev.backupFolder == nil)
        try await Self.withConfigFile(#"{"real": {"vault": {"path": "~/vaults/main.sqlite"}}}"#) { path in
            let configured = try await SettingsLoader(configPath: path, environment: environment).load()
            #expect(configured.vaultPath == Sourced("/home/u/vaults/main.sqlite", from: .file(path)))
            #expect(configured.backupFolder == Sourced("/home/u/vaults/backups", from: .default), "beside the vault it follows")
            let fromEnvironment = try await SettingsLoader(
                configPath: path, environment: environment.merging(["TOKENS_REAL_VAULT_PATH": "/env/v.sqlite"]) { $1 }
            ).load()
            #expect(fromEnvironment.vaultPath == Sourced("/env/v.sqlite", from: .environment("TOKENS_REAL_VAULT_PATH")))
        }
    }

    @Test("bad values say which key, which value and where it came from")
    func invalidValues() async throws {
        await #expect(
            throws: ConfigurationError.invalidValue(
                key: "phase", value: "prod", source: .environment("TOKENS_PHASE"), expected: "dev, alpha or real")
        ) {
            try await SettingsLoader(environment: ["TOKENS_PHASE": "prod"]).load()
        }
        try await Self.withConfigFile(#"{"phase": 3}"#) { path in
            await #expect(throws: ConfigurationError.self) { try await SettingsLoader(configPath: path, environment: [:]).load() }
        }
        for bad in ["30s", "86401", "automatic", ""] {
            await #expect(throws: ConfigurationError.self) { try await SettingsLoader(environment: ["TOKENS_CODES_OFFSET": bad]).load() }
        }
        // A whole number either way, from the file as a JSON number too.
        try await Self.withConfigFile(#"{"codes": {"offset": -30}}"#) { path in
            let settings = try await SettingsLoader(configPath: path, environment: [:]).load()
            #expect(settings.clock.codesOffset.value == .seconds(-30))
        }
        #expect(try await SettingsLoader(environment: [:]).load().clock == ClockSettings())
    }

    @Test("a malformed config file or a missing --config file is a clear error")
    func badFiles() async throws {
        try await Self.withConfigFile("{ not json") { path in
            let error = await #expect(throws: ConfigurationError.self) {
                try await SettingsLoader(configPath: path, environment: [:]).load()
            }
            #expect(String(describing: error!).hasPrefix("cannot read config file \(path): not valid JSON"))
            #expect(!String(describing: error!).contains("NSCocoaErrorDomain"))
        }
        try await Self.withConfigFile("{\"phase\": \"dev\",\n \"lock\": {\"idle\": x}}") { path in
            let error = await #expect(throws: ConfigurationError.self) {
                try await SettingsLoader(configPath: path, environment: [:]).load()
            }
            #expect(String(describing: error!) == "cannot read config file \(path): not valid JSON at line 2, column 19")
        }
        await #expect(throws: ConfigurationError.missingConfigFile("/no/such/file.json")) {
            try await SettingsLoader(configPath: "/no/such/file.json", environment: [:]).load()
        }
    }
}
