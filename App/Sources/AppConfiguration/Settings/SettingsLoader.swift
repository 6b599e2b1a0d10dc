import Configuration
import Foundation
import SystemPackage

/// Reads AppSettings from, in precedence order: flags (already parsed), then through
/// swift-configuration the `TOKENS_*` environment variables and the JSON config file
/// (`--config PATH`, else `$XDG_CONFIG_HOME/tokens/config.json`), then defaults. Keys: `phase`,
/// `log.level`, `alpha.vault.path`, `real.vault.path`, `alpha.backup.folder`,
/// `real.backup.folder`, `backup.auto`, `backup.keep.last`, `backup.keep.days`, `backup.keep.months`,
/// `backup.stale`, `lock.idle`, `clipboard.clear`,
/// `codes.next`, `codes.offset`, `clock.warn`, `sync.interval`, `unlock.timeout` (seconds), `sync.ca.file`, `unlock.idle`.
package struct SettingsLoader: Sendable {
    /// Values given as command-line flags, by config key ("phase", "log.level").
    public var flags: [String: String]
    /// `--config PATH`, if given.
    public var configPath: String?
    public var environment: [String: String]

    public init(flags: [String: String] = [:], configPath: String? = nil, environment: [String: String]) {
        self.flags = flags
        self.configPath = configPath
        self.environment = environment
    }

    /// The config file read when `--config` is not given.
    public var defaultConfigPath: String {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? home + "/.config"
        return base + "/tokens/config.json"
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public var dataHome: String {
        environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
    }

    private var home: String { environment["HOME"] ?? NSHomeDirectory() }

    private func expandingTilde(_ path: String) -> String {
        path == "~" || path.hasPrefix("~/") ? home + path.dropFirst() : path
    }

    public func load() async throws -> AppSettings {
        let resolver = try await makeResolver()
        let path = resolver.configFile
        let exists = resolver.configFileExists
        let phase = try resolver.resolve("phase", default: Phase.default, expected: "dev, alpha or real", Phase.init(name:))
        let logLevel = try resolver.resolve(
            "log.level", default: phase.value.defaultLogLevel,
            expected: LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
        ) { LogLevel(rawValue: $0.lowercased()) }
        var vaultPath: Sourced<String>?
        var backupFolder: Sourced<String>?
        if let folder = phase.value.dataFolderName {
            let key = "\(phase.value.rawValue).vault.path"
            let resolved = try resolver.resolve(key, default: dataHome + "/\(folder)/vault.sqlite", expected: "a file path") {
                $0.isEmpty ? nil : $0
            }
            vaultPath = Sourced(expandingTilde(resolved.value), from: resolved.source)
            let folderKey = "\(phase.value.rawValue).backup.folder"
            let besideVault = ((vaultPath?.value ?? "") as NSString).deletingLastPathComponent + "/backups"
            let folder = try resolver.resolve(folderKey, default: besideVault, expected: "a folder path") { $0.isEmpty ? nil : $0 }
            backupFolder = Sourced(expandingTilde(folder.value), from: folder.source)
        }
        let idleLock = try resolver.resolve("lock.idle", default: 120, expected: "a number of seconds from 5 to 86400") {
            Int($0).flatMap { (5...86_400).contains($0) ? $0 : nil }
        }
        let clipboard = try resolver.resolve("clipboard.clear", default: 30, expected: "a number of seconds from 5 to 600") {
            Int($0).flatMap { (5...600).contains($0) ? $0 : nil }
        }
        let nextCode = try resolver.resolve("codes.next", default: 5, expected: "a number of seconds from 0 to 30") {
            Int($0).flatMap { (0...30).contains($0) ? $0 : nil }
        }
        let clock = ClockSettings(
            codesOffset: try resolver.resolve(
                "codes.offset", default: .seconds(0), expected: "auto, or a number of seconds from -86400 to 86400",
                ClockSettings.CodesOffset.init),
            warnSeconds: try resolver.resolve("clock.warn", default: 10, expected: "a number of seconds from 1 to 86400") {
                Int($0).flatMap { (1...86_400).contains($0) ? $0 : nil }
            })
        let syncInterval = try resolver.resolve("sync.interval", default: 300, expected: "a number of seconds from 30 to 86400") {
            Int($0).flatMap { (30...86_400).contains($0) ? $0 : nil }
        }
        let caFile = try resolver.resolve("sync.ca.file", default: "", expected: "a file path") { $0 }
        let unlock = try resolver.resolve("unlock.timeout", default: 900, expected: "a number of seconds from 0 to 86400") {
            Int($0).flatMap { (0...86_400).contains($0) ? $0 : nil }
        }
        let idleKeyring = try resolver.resolve("unlock.idle", default: true, expected: "forget or keep") {
            switch $0 {
            case "forget": true
            case "keep": false
            default: nil
            }
        }
        let backup = BackupSettings(
            autoSeconds: try resolver.resolve("backup.auto", default: 3600, expected: "a number of seconds from 0 to 31536000") {
                Int($0).flatMap { (0...31_536_000).contains($0) ? $0 : nil }
            },
            keepLast: try resolver.resolve("backup.keep.last", default: 10, expected: "a number of copies from 1 to 10000") {
                Int($0).flatMap { (1...10_000).contains($0) ? $0 : nil }
            },
            keepDays: try resolver.resolve("backup.keep.days", default: 30, expected: "a number of days from 0 to 3650") {
                Int($0).flatMap { (0...3650).contains($0) ? $0 : nil }
            },
            keepMonths: try resolver.resolve("backup.keep.months", default: 12, expected: "a number of months from 0 to 1200") {
                Int($0).flatMap { (0...1200).contains($0) ? $0 : nil }
            },
            staleDays: try resolver.resolve("backup.stale", default: 7, expected: "a number of days from 1 to 3650") {
                Int($0).flatMap { (1...3650).contains($0) ? $0 : nil }
            })
        return AppSettings(
            phase: phase, logLevel: logLevel, vaultPath: vaultPath, backupFolder: backupFolder, backup: backup, idleLockSeconds: idleLock,
            clipboardClearSeconds: clipboard, nextCodeSeconds: nextCode, clock: clock,
            sync: SyncSettings(intervalSeconds: syncInterval, caFile: Sourced(expandingTilde(caFile.value), from: caFile.source)),
            unlockSeconds: unlock, idleLockForgetsKeptKey: idleKeyring, configFile: path, configFileExists: exists)
    }

    /// The flags, the environment and the config file, in that order of precedence.
    func makeResolver() async throws -> Resolver {
        let path = configPath ?? defaultConfigPath
        let exists = FileManager.default.fileExists(atPath: path)
        if configPath != nil, !exists { throw ConfigurationError.missingConfigFile(path) }

        // Keys are looked up as `tokens.KEY` in the environment (TOKENS_LOG_LEVEL); this is what
        // `prefixKeys(with:)` would do, without the generic wrapper a one-shot run pays for. The
        // provider is consulted only when one of our variables is set at all (and the names
        // are made only when a variable starts with TOKENS_).
        var sources: [(any ConfigProvider, keyPrefix: String, (String) -> SettingSource)] = []
        if environment.keys.contains(where: { $0.utf8.starts(with: Self.environmentPrefix.utf8) }),
            Self.allKeys.contains(where: { environment[Self.environmentName($0)] != nil })
        {
            sources.append(
                (EnvironmentVariablesProvider(environmentVariables: environment), "tokens.", { .environment(Self.environmentName($0)) }))
        }
        if exists {
            do {
                let file = try await FileProvider<JSONSnapshot>(filePath: FilePath(path), allowMissing: false)
                sources.append((file, "", { _ in .file(path) }))
            } catch {
                let syntax = FileManager.default.contents(atPath: path).flatMap(ConfigFileSyntax.problem(in:))
                let reason = syntax ?? String(describing: error).split(separator: "\n").first.map(String.init) ?? "unreadable"
                throw ConfigurationError.unreadableConfigFile(path: path, reason: reason)
            }
        }
        return Resolver(flags: flags, sources: sources, configFile: path, configFileExists: exists)
    }

    /// Every key the settings are read from.
    public static let keys = [
        "phase", "log.level", "alpha.vault.path", "real.vault.path", "alpha.backup.folder", "real.backup.folder", "backup.auto",
        "backup.keep.last", "backup.keep.days", "backup.keep.months", "backup.stale", "lock.idle", "clipboard.clear", "codes.next",
        "codes.offset", "clock.warn", "sync.interval",
        "sync.ca.file", "unlock.timeout", "unlock.idle",
    ]

    /// The client's keys and the server's (`tokens-server`), which share the config file.
    static let allKeys = keys + serverKeys

    /// What every environment variable of a setting starts with.
    private static let environmentPrefix = "TOKENS_"

    /// The environment variable of a key: `log.level` is TOKENS_LOG_LEVEL. Keys are ASCII, and
    /// are upper-cased byte by byte (`uppercased()` and a walk by Character took a sixth of a
    /// one-shot command's instructions for the 48 keys).
    public static func environmentName(_ key: String) -> String {
        var name = Array(environmentPrefix.utf8)
        name.reserveCapacity(name.count + key.utf8.count)
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "."): name.append(UInt8(ascii: "_"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): name.append(byte - 32)
            default: name.append(byte)
            }
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// `log.level` as `log-level` or `LOG_LEVEL` (without Foundation's NSString bridge, which a
    /// one-shot `tokens code` would pay for at start-up).
    private static func replacingDots(_ key: String, with separator: Character) -> String {
        String(key.map { $0 == "." ? separator : $0 })
    }

    /// Looks a key up in the flags, then source by source; the first one wins, converted.
    /// (The flags are values the command line has already given: a plain lookup, not
    /// an InMemoryProvider, whose key dictionary costs a one-shot run a conformance lookup.)
    struct Resolver {
        let flags: [String: String]
        let sources: [(any ConfigProvider, keyPrefix: String, (String) -> SettingSource)]
        let configFile: String
        let configFileExists: Bool

        func resolve<Value: Sendable>(
            _ key: String, default defaultValue: Value, expected: @autoclosure () -> String, _ convert: (String) -> Value?
        ) throws -> Sourced<Value> {
            assert(SettingsLoader.allKeys.contains(key), "add \(key) to SettingsLoader.keys or serverKeys")
            func converted(_ text: String, from source: SettingSource) throws -> Sourced<Value> {
                guard let value = convert(text) else {
                    throw ConfigurationError.invalidValue(key: key, value: text, source: source, expected: expected())
                }
                return Sourced(value, from: source)
            }
            if let text = flags[key] {
                return try converted(text, from: .flag("--" + SettingsLoader.replacingDots(key, with: "-")))
            }
            for (provider, keyPrefix, describe) in sources {
                var source: SettingSource { describe(key) }
                let absoluteKey = AbsoluteConfigKey(ConfigKey(keyPrefix + key))
                let text: String
                // A string, or a whole number (JSON numbers for counts such as lock.idle).
                if let result = try? provider.value(forKey: absoluteKey, type: .string) {
                    guard let content = result.value?.content else { continue }
                    guard case .string(let value) = content else {
                        throw ConfigurationError.wrongType(key: key, source: source, expected: expected())
                    }
                    text = value
                } else if let result = try? provider.value(forKey: absoluteKey, type: .int),
                    case .int(let number) = result.value?.content
                {
                    text = String(number)
                } else {
                    throw ConfigurationError.wrongType(key: key, source: source, expected: expected())
                }
                return try converted(text, from: source)
            }
            return Sourced(defaultValue, from: .default)
        }
    }
}
