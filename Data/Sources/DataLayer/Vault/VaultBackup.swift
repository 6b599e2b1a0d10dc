import Crypto
import Domain
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a checked backup holds: its file, its accounts and its size in bytes.
public struct VaultBackupReport: Sendable, Equatable {
    public let path: String
    public let accounts: Int
    public let bytes: Int
}

extension UnlockedVault {
    /// Writes a copy of the vault to `path` and checks it before it counts.
    ///
    /// The copy is SQLite's online backup of one read transaction (a consistent snapshot, never
    /// a file copy under a writer), written under a temporary name, 0600, in a folder made 0700
    /// if missing. It is then opened with this vault's key and checked as unlocking checks a
    /// vault (header MAC, schema, every entry against the manifest), and every entry and sync row
    /// is decrypted. Only then is it linked in under `path`; an existing file is never replaced.
    /// A copy that fails is removed and `backupUnverified` thrown. The vault itself is only read.
    public func backUp(to path: String) throws -> VaultBackupReport {
        try backUp(to: path, afterCopy: nil)
    }

    /// `backUp`, with a hook given the copy's temporary path before it is checked (tests damage it).
    func backUp(to path: String, afterCopy: ((String) throws -> Void)?) throws -> VaultBackupReport {
        let folder = (path as NSString).deletingLastPathComponent
        let previousMask = umask(0o077)
        defer { umask(previousMask) }
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw VaultError.backupUnverified(path: path, reason: "its folder cannot be made")
            }
            chmod(folder, 0o700)
        }
        guard !FileManager.default.fileExists(atPath: path) else { throw VaultError.backupExists(path: path) }
        let temporary = path + ".writing-\(getpid())"
        VaultBackup.removeFiles(at: temporary)
        defer { VaultBackup.removeFiles(at: temporary) }
        let source = try database
        do {
            try VaultBackup.copy(source, to: temporary)
        } catch let error as DatabaseError {
            // Most often the copy's disk (full, read-only): not the vault, which was checked at unlock.
            let reason = error.message ?? "SQLite error \(error.resultCode.primaryResultCode.rawValue)"
            throw VaultError.backupUnverified(path: path, reason: "it could not be written: \(reason)")
        }
        chmod(temporary, 0o600)
        try afterCopy?(temporary)
        let master = keys.master
        let accounts: Int
        do {
            accounts = try VaultBackup.check(at: temporary) { _ in master }.count
        } catch let error as VaultError {
            throw VaultError.backupUnverified(path: path, reason: error.checkFinding)
        }
        guard link(temporary, path) == 0 else {
            throw errno == EEXIST
                ? VaultError.backupExists(path: path) : VaultError.backupUnverified(path: path, reason: "it cannot be linked in")
        }
        return VaultBackupReport(path: path, accounts: accounts, bytes: VaultBackup.size(of: path))
    }

    /// The accounts of the backup at `path`, checked as `VaultBackup.verify` checks them, opened
    /// with this vault's key. A backup written under another key (before a passphrase change,
    /// or of another vault) is `backupOtherKey`: `VaultBackup.read` with its passphrase opens it.
    /// Nothing is written to the file.
    public func readBackup(at path: String) throws -> [Account] {
        let master = keys.master
        return try VaultBackup.reading(path) {
            try VaultBackup.checkUnchanged(at: path) { header in
                guard header.isAuthentic(keys: VaultKeys(master: master, vaultID: header.vaultID)) else {
                    throw VaultError.backupOtherKey(path: path)
                }
                return master
            }
        }
    }
}

/// Checking a backup file: opened as unlocking opens a vault, every entry and sync row decrypted.
public enum VaultBackup {
    /// Checks the backup at `path` with `passphrase` (the one the vault had when the backup was
    /// written). A wrong passphrase is `wrongPassphrase`; a copy that fails is `backupDamaged`.
    /// Nothing is written to the file.
    public static func verify(at path: String, passphrase: Passphrase) throws -> VaultBackupReport {
        VaultBackupReport(path: path, accounts: try read(at: path, passphrase: passphrase).count, bytes: size(of: path))
    }

    /// The accounts of the backup at `path`, checked as `verify` checks them, opened with
    /// `passphrase`. Nothing is written to the file.
    public static func read(at path: String, passphrase: Passphrase) throws -> [Account] {
        try reading(path) {
            try checkUnchanged(at: path) { header in try Vault.masterKey(of: header, passphrase: passphrase) }
        }
    }

    /// `body`'s accounts, its errors as a backup's: what the check found is `backupDamaged`;
    /// a wrong key or passphrase, a missing file and a newer format are themselves.
    static func reading(_ path: String, _ body: () throws -> [Account]) throws -> [Account] {
        do {
            return try body()
        } catch let error as VaultError {
            switch error {
            case .wrongPassphrase, .notInitialized, .busy, .newerFormat, .unsupportedKDF, .backupOtherKey: throw error
            default: throw VaultError.backupDamaged(path: path, reason: error.checkFinding)
            }
        }
    }

    /// `check`, leaving the file as it is: a backup in an older format is checked on a private
    /// copy, since opening it migrates it (the key lookup stops such an open before any write).
    static func checkUnchanged(at path: String, masterKey: (VaultHeader) throws -> SymmetricKey) throws -> [Account] {
        do {
            return try check(at: path) { header in
                guard header.formatVersion >= VaultHeader.currentFormat else { throw OlderFormat() }
                return try masterKey(header)
            }
        } catch is OlderFormat {
            let previousMask = umask(0o077)
            defer { umask(previousMask) }
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-backup-check-\(UUID())").path
            defer { removeFiles(at: copy) }
            try VaultDatabase.guarding(path: path) {
                let source = try VaultDatabase.open(path: path)
                defer { try? source.close() }
                try Self.copy(source, to: copy)
            }
            return try check(at: copy, masterKey: masterKey)
        }
    }

    /// What the key lookup of `checkUnchanged` throws for a file in an older format.
    private struct OlderFormat: Error {}

    /// Copies `source` into a new file at `path` with SQLite's online backup (one consistent
    /// snapshot), its WAL checkpointed into the file.
    static func copy(_ source: DatabaseQueue, to path: String) throws {
        let copy = try DatabaseQueue(path: path, configuration: VaultDatabase.configuration())
        defer { try? copy.close() }
        try source.backup(to: copy)
        try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try copy.close()
    }

    /// Opens the vault file at `path` with the key `masterKey` finds, decrypts every entry and
    /// sync row, closes it, and returns its accounts.
    static func check(at path: String, masterKey: (VaultHeader) throws -> SymmetricKey) throws -> [Account] {
        let copy = try Vault.open(at: path, masterKey: masterKey)
        defer { try? copy.close() }
        let accounts = try copy.readEntries { keys, records in try records.map { try EntryCipher.open($0, keys: keys) } }
        try copy.read { db, keys, _ in
            for row in try SealedSyncRow.fetchAll(db) {
                var plaintext = try row.open(keys: keys)
                plaintext.wipe()
            }
        }
        try copy.close()
        return accounts
    }

    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    static func removeFiles(at path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
