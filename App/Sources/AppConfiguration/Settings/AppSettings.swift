import Foundation

/// Everything App reads from configuration, each value with its source.
public struct AppSettings: Sendable, Equatable {
    public let phase: Sourced<Phase>
    public let logLevel: Sourced<LogLevel>
    /// The vault file of the phase; nil for DEV, which keeps everything in memory.
    public let vaultPath: Sourced<String>?
    /// Where `tokens backup` writes and `backup list` looks (`alpha.backup.folder`,
    /// `real.backup.folder`; default `backups` beside the vault); nil for DEV.
    public let backupFolder: Sourced<String>?
    /// When copies are written on their own, and how many are kept.
    public let backup: BackupSettings
    /// Seconds of inactivity after which the interactive screen locks the vault.
    public let idleLockSeconds: Sourced<Int>
    /// Seconds before a copied code is cleared from the clipboard.
    public let clipboardClearSeconds: Sourced<Int>
    /// The last seconds of a period in which the next code shows.
    public let nextCodeSeconds: Sourced<Int>
    /// What codes are computed at, and when the clock is too far off.
    public let clock: ClockSettings
    /// How the client syncs.
    public let sync: SyncSettings
    /// Seconds `tokens unlock` keeps the vault's key in the kernel keyring (`unlock.timeout`);
    /// 0: the keyring is not used, every command asks.
    public let unlockSeconds: Sourced<Int>
    /// Whether the screen's idle lock also drops the key `tokens unlock` kept (`unlock.idle`).
    public let idleLockForgetsKeptKey: Sourced<Bool>
    /// The config file consulted, and whether it exists.
    public let configFile: String
    public let configFileExists: Bool

    public init(
        phase: Sourced<Phase>, logLevel: Sourced<LogLevel>, vaultPath: Sourced<String>? = nil,
        backupFolder: Sourced<String>? = nil, backup: BackupSettings = BackupSettings(),
        idleLockSeconds: Sourced<Int> = Sourced(120, from: .default),
        clipboardClearSeconds: Sourced<Int> = Sourced(30, from: .default),
        nextCodeSeconds: Sourced<Int> = Sourced(5, from: .default), clock: ClockSettings = ClockSettings(),
        sync: SyncSettings = SyncSettings(),
        unlockSeconds: Sourced<Int> = Sourced(900, from: .default),
        idleLockForgetsKeptKey: Sourced<Bool> = Sourced(true, from: .default),
        configFile: String, configFileExists: Bool
    ) {
        self.unlockSeconds = unlockSeconds
        self.idleLockForgetsKeptKey = idleLockForgetsKeptKey
        self.sync = sync
        self.idleLockSeconds = idleLockSeconds
        self.clipboardClearSeconds = clipboardClearSeconds
        self.nextCodeSeconds = nextCodeSeconds
        self.clock = clock
        self.phase = phase
        self.logLevel = logLevel
        self.vaultPath = vaultPath
        self.backup = backup
        self.backupFolder =
            backupFolder ?? vaultPath.map { Sourced(($0.value as NSString).deletingLastPathComponent + "/backups", from: .default) }
        self.configFile = configFile
        self.configFileExists = configFileExists
    }
}

/// The sync client's settings (the server itself is stored in the vault when it joins).
public struct SyncSettings: Sendable, Equatable {
    /// Seconds between syncs while the interactive screen is open.
    public let intervalSeconds: Sourced<Int>
    /// A PEM file of the only CA certificates trusted for the server (empty: the system's).
    public let caFile: Sourced<String>

    public init(intervalSeconds: Sourced<Int> = Sourced(300, from: .default), caFile: Sourced<String> = Sourced("", from: .default)) {
        self.intervalSeconds = intervalSeconds
        self.caFile = caFile
    }

    /// The CA file, if one is set.
    public var caFilePath: String? { caFile.value.isEmpty ? nil : caFile.value }
}

/// Automatic backups and their retention (`backup.auto`, `backup.keep.*`).
public struct BackupSettings: Sendable, Equatable {
    /// After a command that changed the accounts, a copy is written when none is this recent
    /// (seconds; 0: never on its own).
    public let autoSeconds: Sourced<Int>
    /// The newest copies kept.
    public let keepLast: Sourced<Int>
    /// Days for which the newest copy of each is kept.
    public let keepDays: Sourced<Int>
    /// Months for which the newest copy of each is kept.
    public let keepMonths: Sourced<Int>
    /// Days after which the newest copy is too old: `tokens doctor` warns.
    public let staleDays: Sourced<Int>

    public init(
        autoSeconds: Sourced<Int> = Sourced(3600, from: .default), keepLast: Sourced<Int> = Sourced(10, from: .default),
        keepDays: Sourced<Int> = Sourced(30, from: .default), keepMonths: Sourced<Int> = Sourced(12, from: .default),
        staleDays: Sourced<Int> = Sourced(7, from: .default)
    ) {
        self.staleDays = staleDays
        self.autoSeconds = autoSeconds
        self.keepLast = keepLast
        self.keepDays = keepDays
        self.keepMonths = keepMonths
    }
}

/// The clock codes are computed at (`codes.offset`) and how far from the sync server's it may be
/// before Tokens warns (`clock.warn`).
public struct ClockSettings: Sendable, Equatable {
    /// `codes.offset`: `auto` (the offset measured against the sync server) or seconds added to
    /// this machine's clock (0, the default: none).
    public enum CodesOffset: Sendable, Equatable, CustomStringConvertible {
        case seconds(Int)
        case auto

        /// `auto`, or a whole number of seconds within a day either way.
        public init?(_ text: String) {
            if text == "auto" {
                self = .auto
            } else if let seconds = Int(text), (-86_400...86_400).contains(seconds) {
                self = .seconds(seconds)
            } else {
                return nil
            }
        }

        public var description: String {
            switch self {
            case .auto: "auto"
            case .seconds(let seconds): String(seconds)
            }
        }
    }

    public let codesOffset: Sourced<CodesOffset>
    /// Seconds the clock may be off the sync server's before a warning.
    public let warnSeconds: Sourced<Int>

    public init(
        codesOffset: Sourced<CodesOffset> = Sourced(.seconds(0), from: .default), warnSeconds: Sourced<Int> = Sourced(10, from: .default)
    ) {
        self.codesOffset = codesOffset
        self.warnSeconds = warnSeconds
    }
}
