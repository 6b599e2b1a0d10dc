/// One resolved setting as `tokens config show` prints it: key, value and where it came from.
/// Settings hold no secrets (the passphrase is never a setting), so every value can be shown.
package struct SettingsEntry: Sendable, Equatable, Encodable {
    public let key: String
    public let value: String
    public let source: String

    init<Value>(_ key: String, _ setting: Sourced<Value>, describe: (Value) -> String = { "\($0)" }) {
        self.key = key
        self.value = describe(setting.value)
        self.source = setting.source.description
    }
}

extension AppSettings {
    /// Every setting of the resolved configuration, in the config file's key names.
    package var entries: [SettingsEntry] {
        var entries = [
            SettingsEntry("phase", phase) { $0.rawValue },
            SettingsEntry("log.level", logLevel) { $0.rawValue },
        ]
        if let vaultPath { entries.append(SettingsEntry("\(phase.value.rawValue).vault.path", vaultPath)) }
        if let backupFolder { entries.append(SettingsEntry("\(phase.value.rawValue).backup.folder", backupFolder)) }
        entries += [
            SettingsEntry("backup.auto", backup.autoSeconds),
            SettingsEntry("backup.keep.last", backup.keepLast),
            SettingsEntry("backup.keep.days", backup.keepDays),
            SettingsEntry("backup.keep.months", backup.keepMonths),
            SettingsEntry("backup.stale", backup.staleDays),
            SettingsEntry("lock.idle", idleLockSeconds),
            SettingsEntry("clipboard.clear", clipboardClearSeconds),
            SettingsEntry("codes.next", nextCodeSeconds),
            SettingsEntry("codes.offset", clock.codesOffset),
            SettingsEntry("clock.warn", clock.warnSeconds),
            SettingsEntry("sync.interval", sync.intervalSeconds),
            SettingsEntry("sync.ca.file", sync.caFile),
            SettingsEntry("unlock.timeout", unlockSeconds),
            SettingsEntry("unlock.idle", idleLockForgetsKeptKey) { $0 ? "forget" : "keep" },
        ]
        return entries
    }
}
