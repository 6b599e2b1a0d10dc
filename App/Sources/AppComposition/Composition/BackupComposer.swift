import AppConfiguration
import DataLayer
import Domain
import Foundation

/// A checked copy of the vault: its file, its accounts and its size.
package typealias VaultBackupReport = DataLayer.VaultBackupReport

/// A copy in a backups folder: its file and when it was written.
package typealias BackupCopy = VaultBackupFolder.Copy

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
        VaultBackupFolder.fileName(at: date)
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

    /// The copies in `folder`, oldest first.
    public static func copies(in folder: String) -> [BackupCopy] {
        VaultBackupFolder.copies(in: folder)
    }

    /// The retention the settings give.
    public static func retention(_ settings: AppSettings) -> BackupRetention {
        BackupRetention(
            last: settings.backup.keepLast.value, days: settings.backup.keepDays.value, months: settings.backup.keepMonths.value)
    }

    /// Removes the copies in `folder` that `retention` does not keep at `now`, and what backups
    /// interrupted by a crash left (the folder's other files are never touched); returns how
    /// many copies went.
    @discardableResult
    public static func prune(_ folder: String, retention: BackupRetention, now: Date) -> Int {
        VaultBackupFolder.removeAbandoned(in: folder)
        let copies = VaultBackupFolder.copies(in: folder)
        let kept = retention.kept(copies.map(\.written), now: now)
        let removed = copies.filter { !kept.contains($0.written) }
        removed.forEach(VaultBackupFolder.remove)
        return removed.count
    }

    /// After a command changed the accounts: a checked copy into the phase's folder when the
    /// settings' schedule calls for one, then the retention. Nil when none was due.
    public static func afterChange(of vault: any UnlockedVaultContainer, settings: AppSettings, now: Date) throws -> VaultBackupReport? {
        try afterChange(settings: settings, now: now) { folder in try vault.backUp(into: folder) }
    }

    /// `afterChange`, the copy written into the folder it is given by `backUp`.
    static func afterChange(
        settings: AppSettings, now: Date, backUp: (String) throws -> VaultBackupReport
    ) throws -> VaultBackupReport? {
        guard let folder = defaultFolder(for: settings) else { return nil }
        let schedule = BackupSchedule(interval: TimeInterval(settings.backup.autoSeconds.value))
        guard schedule.isDue(newest: VaultBackupFolder.copies(in: folder).last?.written, now: now) else { return nil }
        let report = try backUp(folder)
        prune(folder, retention: retention(settings), now: now)
        return report
    }

    /// The screen's header warning when the newest copy in the phase's folder is older than
    /// `backup.stale` days ("no backup for 9 days", "no backup yet"); nil when it is recent, and
    /// for DEV. Read from the copies' names: `tokens doctor` also opens the newest.
    public static func staleWarning(settings: AppSettings, now: Date) -> String? {
        guard let folder = defaultFolder(for: settings) else { return nil }
        let newest = VaultBackupFolder.copies(in: folder).last?.written
        guard isStale(newest, settings: settings, now: now) else { return nil }
        guard let newest else { return "no backup yet" }
        return "no backup for \(Int(now.timeIntervalSince(newest) / 86_400)) days"
    }

    /// Whether the newest copy, written at `newest` (nil: none), is older than `backup.stale` days.
    static func isStale(_ newest: Date?, settings: AppSettings, now: Date) -> Bool {
        BackupSchedule.isStale(newest: newest, now: now, limit: TimeInterval(settings.backup.staleDays.value) * 86_400)
    }
}
