import Crypto
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The encrypted vault file: creating it and unlocking it.
///
/// A random 256-bit master key encrypts every entry with AES-256-GCM. Key slots wrap the master
/// key with a key derived from a passphrase by scrypt; the header (format version, vault id,
/// slots) is authenticated with an HMAC under a key derived from the master key.
public enum Vault {
    /// The format version this build writes.
    public static let formatVersion = VaultHeader.currentFormat

    /// Creates a new vault at `path` (its folder 0700, the file 0600). Refuses to overwrite.
    /// The file appears whole or not at all: it is built under a temporary name, then linked in.
    public static func create(at path: String, passphrase: Passphrase, kdf: ScryptParameters = .default) throws {
        guard !passphrase.isEmpty else { throw VaultError.emptyPassphrase }
        let directory = (path as NSString).deletingLastPathComponent
        let previousMask = umask(0o077)
        defer { umask(previousMask) }
        // A folder Tokens makes is private; a folder the user chose keeps its permissions.
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            chmod(directory, 0o700)
        }
        guard !FileManager.default.fileExists(atPath: path) else { throw VaultError.alreadyExists(path: path) }

        let temporary = path + ".creating-\(getpid())"
        removeFiles(at: temporary)
        defer { removeFiles(at: temporary) }
        let master = VaultCrypto.randomKey()
        let vaultID = Data(VaultCrypto.randomBytes(16))
        let slot = try KeySlot.make(wrapping: master, passphrase: passphrase, parameters: kdf)
        let header = VaultHeader.make(vaultID: vaultID, slots: [slot], master: master)
        try VaultStore.guarding(path: path) {
            let pool = try DatabaseQueue(path: temporary, configuration: VaultStore.configuration())
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try VaultSchema.migrator.migrate(pool)
            try pool.write { db in try write(header, in: db) }
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try pool.close()
        }
        chmod(temporary, 0o600)
        // link(2) fails if `path` appeared meanwhile: never clobber a vault.
        guard link(temporary, path) == 0 else {
            throw errno == EEXIST
                ? VaultError.alreadyExists(path: path) : VaultError.damaged(path: path, reason: "cannot be created")
        }
    }

    /// Unlocks the vault at `path`. Wrong passphrase, tampering, damage or a newer format each
    /// give their own error, and nothing is written.
    public static func open(at path: String, passphrase: Passphrase) throws -> UnlockedVault {
        let pool = try VaultStore.open(path: path)
        do {
            return try unlock(pool, path: path, passphrase: passphrase)
        } catch {
            // Leave the files as they were: close, so SQLite removes its -wal and -shm files.
            try? pool.close()
            throw error
        }
    }

    private static func unlock(_ pool: DatabaseQueue, path: String, passphrase: Passphrase) throws -> UnlockedVault {
        let header = try VaultStore.guarding(path: path) {
            try pool.read { db in try readHeader(db, path: path) }
        }
        guard header.formatVersion <= VaultHeader.currentFormat else {
            throw VaultError.newerFormat(found: header.formatVersion, supported: VaultHeader.currentFormat)
        }
        guard header.formatVersion == VaultHeader.currentFormat else { throw VaultError.headerTampered }
        var master: SymmetricKey?
        for slot in header.slots.prefix(ScryptParameters.maximumSlots) {
            if let key = try slot.unwrap(with: passphrase) {
                master = key
                break
            }
        }
        guard let master else { throw VaultError.wrongPassphrase }
        guard header.isAuthentic(master: master) else { throw VaultError.headerTampered }
        return UnlockedVault(pool: pool, path: path, master: master, header: header)
    }

    static func readHeader(_ db: Database, path: String) throws -> VaultHeader {
        guard try db.tableExists("header"), try db.tableExists("key_slot"),
            let row = try Row.fetchOne(db, sql: "SELECT format_version, vault_id, mac FROM header WHERE id = 1")
        else { throw VaultError.damaged(path: path, reason: "it has no vault header") }
        let slots = try Row.fetchAll(db, sql: "SELECT * FROM key_slot ORDER BY id").map { row in
            KeySlot(
                id: row["id"], kdf: row["kdf"],
                parameters: ScryptParameters(n: row["kdf_n"], r: row["kdf_r"], p: row["kdf_p"]),
                salt: row["salt"], nonce: row["nonce"], wrappedKey: row["wrapped_key"])
        }
        return VaultHeader(formatVersion: row["format_version"], vaultID: row["vault_id"], slots: slots, mac: row["mac"])
    }

    /// Replaces the header and all key slots, in the caller's transaction.
    static func write(_ header: VaultHeader, in db: Database) throws {
        try db.execute(sql: "DELETE FROM key_slot")
        for slot in header.slots {
            try db.execute(
                sql: """
                    INSERT INTO key_slot (id, kdf, kdf_n, kdf_r, kdf_p, salt, nonce, wrapped_key)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    slot.id, slot.kdf, slot.parameters.n, slot.parameters.r, slot.parameters.p, slot.salt, slot.nonce,
                    slot.wrappedKey,
                ])
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO header (id, format_version, vault_id, mac) VALUES (1, ?, ?, ?)",
            arguments: [header.formatVersion, header.vaultID, header.mac])
    }

    private static func removeFiles(at path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
}
