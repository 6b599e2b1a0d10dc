import AppComposition
import AppConfiguration
import CommandLineKit
import Foundation

/// The man page: the command tree (CommandLineKit renders it from `Tokens.spec`) and the
/// ENVIRONMENT, FILES and EXIT STATUS sections, in mdoc, from the sources `--help` and README
/// use (ExitStatus.documented, SettingsLoader.keys). `tokens _manual` prints it for `make
/// release`; CommandRunner answers it before parsing, so neither `--help` nor the page lists it.
enum ManualSections {
    /// The one argument that prints the man page.
    static let argument = "_manual"

    /// The whole page, dated today.
    static func manualPage(date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMMM d, yyyy"
        return ManualPage.render(Tokens.spec, date: formatter.string(from: date), extraSections: mdoc())
    }

    /// What each setting's environment variable does, by config key.
    static let settings: [String: String] = [
        "phase": "The phase: dev, alpha or real (after --phase, before the config file).",
        "log.level": "The log level on standard error: trace, debug, info, notice, warning, error or critical.",
        "alpha.vault.path": "The ALPHA phase's vault file.",
        "real.vault.path": "The REAL phase's vault file.",
        "alpha.backup.folder": "Where tokens backup writes ALPHA's copies (default: backups beside its vault).",
        "real.backup.folder": "Where tokens backup writes REAL's copies (default: backups beside its vault).",
        "backup.auto": "After a command that changed accounts, a checked copy is written when none is this recent (seconds; 0: never).",
        "backup.keep.last": "The newest backups kept (default 10).",
        "backup.keep.days": "Days for which the newest backup of each day is kept (default 30).",
        "backup.keep.months": "Months for which the newest backup of each month is kept (default 12).",
        "backup.stale": "Days after which tokens doctor warns that the newest backup is too old (default 7).",
        "lock.idle": "Seconds without a key press before the screen locks the vault.",
        "clipboard.clear": "Seconds before a code copied from the screen is cleared from the clipboard.",
        "codes.next": "Seconds before the end of a period from which the next code shows too.",
        "codes.offset":
            "auto: codes are computed at the sync server's time, as the last sync measured it; a number: seconds added to this machine's clock for codes (default 0). --at wins.",
        "clock.warn": "Seconds this machine's clock may be off the sync server's before Tokens warns (default 10).",
        "sync.interval": "Seconds between syncs while the interactive screen is open (the vault syncs).",
        "sync.ca.file": "A PEM file of the only CA certificates trusted for the sync server.",
        "unlock.timeout": "Seconds tokens unlock keeps the vault's key in the kernel keyring (0: never; asks every time).",
        "unlock.idle": "forget (default): the screen's idle lock also drops the key tokens unlock kept; keep: it does not.",
    ]

    /// Variables that carry a secret, for scripts; never settings, never in the config file.
    static let secrets: [(String, String)] = [
        (
            "TOKENS_PASSPHRASE",
            "The vault passphrase (less safe than --passphrase-file: other processes of the user can read the environment)."
        ),
        ("TOKENS_NEW_PASSPHRASE", "The new passphrase for passwd."),
        ("TOKENS_BACKUP_PASSPHRASE", "The passphrase a backup was written under, for backup restore, when it is not the vault's."),
        ("TOKENS_IMPORT_PASSWORD", "The password of an encrypted export being imported."),
        ("TOKENS_EXPORT_PASSWORD", "The password of an aegis-encrypted export."),
    ]

    static let others: [(String, String)] = [
        ("XDG_CONFIG_HOME", "Where the config file is looked for (default ~/.config)."),
        ("XDG_DATA_HOME", "Where the vaults live (default ~/.local/share)."),
        ("NO_COLOR", "When set and not empty, the screen uses no colours."),
    ]

    static let files: [(String, String)] = [
        ("$XDG_CONFIG_HOME/tokens/config.json", "The config file (--config names another)."),
        ("$XDG_DATA_HOME/tokens/vault.sqlite", "The REAL phase's encrypted vault, in a folder only you can open."),
        ("$XDG_DATA_HOME/tokens-alpha/vault.sqlite", "The ALPHA phase's vault, never shared with REAL."),
        ("$XDG_DATA_HOME/tokens/backups", "The checked copies tokens backup writes (ALPHA's beside its vault)."),
    ]

    static func mdoc() -> String {
        var lines = [".Sh ENVIRONMENT", ".Bl -tag -width 6n"]
        for key in SettingsLoader.keys {
            lines += [".It Ev \(SettingsLoader.environmentName(key))", settings[key] ?? key]
        }
        for (name, meaning) in secrets + others { lines += [".It Ev \(name)", meaning] }
        lines += [".El", ".Sh FILES", ".Bl -tag -width 6n"]
        for (path, meaning) in files { lines += [".It Pa \(path)", meaning] }
        lines += [".El", ".Sh \"EXIT STATUS\"", ".Bl -tag -width 6n"]
        for (status, meaning) in ExitStatus.documented { lines += [".It \(status.rawValue)", meaning] }
        lines.append(".El")
        return lines.joined(separator: "\n") + "\n"
    }
}
