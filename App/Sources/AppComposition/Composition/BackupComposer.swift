import AppConfiguration
import DataLayer
import Domain
import Foundation

/// A checked copy of the vault: its file, its accounts and its size.
package typealias VaultBackupReport = DataLayer.VaultBackupReport

/// Where `tokens backup` writes, what it names a copy, and checking a backup file (which needs
/// no vault: it opens with the passphrase the vault had when the copy was written).
package enum BackupComposer {
    /// The phase's backups folder (`real.backup.folder`, `alpha.backup.folder`; by default
    /// `backups` beside its vault: for REAL, `$XDG_DATA_HOME/tokens/backups`); nil for DEV,
    /// which keeps nothing.
    public static func defaultFolder(for settings: AppSettings) -> String? {
        guard settings.phase.value.usesVault else { return nil }
        return settings.backupFolder?.value
    }

    /// A copy's name: `vault-` and the UTC time to the millisecond, so names sort by time.
    public static func fileName(at date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        func digits(_ value: Int?, _ count: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        let date = digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2)
        let time = digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2)
        return "vault-\(date)T\(time).\(digits((parts.nanosecond ?? 0) / 1_000_000, 3))Z.sqlite"
    }

    /// Checks the backup at `path` with `passphrase`: every entry decrypted; nothing written.
    public static func verify(at path: String, passphrase: Passphrase) throws -> VaultBackupReport {
        try VaultBackup.verify(at: path, passphrase: passphrase)
    }

    /// The accounts of the backup at `path`, checked, opened with `passphrase`; nothing written.
    public static func read(at path: String, passphrase: Passphrase) throws -> [Account] {
        try VaultBackup.read(at: path, passphrase: passphrase)
    }

    /// Whether `error` says a backup was written under another key than the vault's.
    public static func isOtherKey(_ error: any Error) -> Bool {
        if case .backupOtherKey = error as? VaultError { true } else { false }
    }

    /// The copies in `folder` (files named as `fileName` names them), oldest first.
    public static func copies(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("vault-") && $0.hasSuffix("Z.sqlite") }.sorted().map { folder + "/" + $0 }
    }
}
