import Foundation

extension UnlockedVault {
    /// Whether the backup at `path` holds this vault as it is now: its header opens under this
    /// vault's key and is the vault's current header (whose MAC covers the revision and the
    /// digest of every row), so the copy was written after the vault's last change. False for
    /// anything else: another key, an older state, a file that does not open. Only headers are
    /// read; `VaultBackup.verify` checks a copy's every row.
    public func isCurrent(backupAt path: String) -> Bool {
        guard let copy = try? SQLiteReadConnection(path: path, busyTimeout: 0) else { return false }
        defer { copy.close() }
        let master = keys.master
        guard let theirs = try? copy.transaction({ try VaultHeader.read(copy, path: path) }),
            theirs.isAuthentic(keys: VaultKeys(master: master, vaultID: theirs.vaultID)),
            let ours = try? currentHeader()
        else { return false }
        return theirs.vaultID == ours.vaultID && theirs.mac == ours.mac
    }

    /// The vault's header as the file holds it now: through the read path's connection where
    /// there is one (opening GRDB's queue would run its whole-file check), else through GRDB.
    private func currentHeader() throws -> VaultHeader {
        if let header = try readingHeader({ _, _, header in header }) { return header }
        return try VaultDatabase.guarding(path: path) { try database.read { db in try VaultHeader.read(db, path: path) } }
    }
}
