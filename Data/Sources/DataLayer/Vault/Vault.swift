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
/// slots, revision and the manifest of every entry) is authenticated with an HMAC under a key
/// derived from the master key.
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
        guard !FileManager.default.fileExists(atPath: path) else {
            throw hasOwnTables(path) ? VaultError.alreadyExists(path: path) : VaultError.occupied(path: path)
        }

        let temporary = path + ".creating-\(getpid())"
        removeFiles(at: temporary)
        defer { removeFiles(at: temporary) }
        let vaultID = Data(VaultCrypto.randomBytes(16))
        let keys = VaultKeys.fresh(vaultID: vaultID)
        let slot = try KeySlot.make(wrapping: keys.master, passphrase: passphrase, parameters: kdf)
        try VaultDatabase.guarding(path: path) {
            let database = try DatabaseQueue(path: temporary, configuration: VaultDatabase.configuration())
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = \(VaultJournal.mode)") }
            try VaultSchema.migrator.migrate(database)
            _ = try database.write { db in try writeEmpty(in: db, vaultID: vaultID, slots: [slot], keys: keys) }
            try database.close()
        }
        chmod(temporary, 0o600)
        // link(2) fails if `path` appeared meanwhile: never clobber a vault.
        guard link(temporary, path) == 0 else {
            throw errno == EEXIST
                ? VaultError.alreadyExists(path: path) : VaultError.damaged(path: path, reason: "cannot be created")
        }
    }

    /// Unlocks the vault at `path`: the schema, the header's MAC and every entry against the
    /// manifest are checked. Wrong passphrase, tampering, damage or a newer format each give
    /// their own error, and nothing is written. A format-1 vault is migrated in place, in one
    /// transaction, so an interrupted migration leaves the format-1 vault as it was.
    public static func open(at path: String, passphrase: Passphrase) throws -> UnlockedVault {
        try open(at: path, passphrase: passphrase, migrationStep: nil)
    }

    /// `open`, with a hook run after each entry a migration re-encrypts (tests interrupt it).
    static func open(at path: String, passphrase: Passphrase, migrationStep: ((Int) throws -> Void)?) throws -> UnlockedVault {
        try open(at: path, migrationStep: migrationStep) { header in try masterKey(of: header, passphrase: passphrase) }
    }

    /// The master key held by the first of `header`'s slots that `passphrase` opens.
    static func masterKey(of header: VaultHeader, passphrase: Passphrase) throws -> SymmetricKey {
        for slot in header.slots.prefix(ScryptParameters.maximumSlots) {
            if let key = try slot.unwrap(with: passphrase) { return key }
        }
        throw VaultError.wrongPassphrase
    }

    /// Opens the vault with the master key `masterKey` finds for its header (from a passphrase
    /// and the key slots, or kept by `tokens unlock`), then checks it as `open(at:passphrase:)` does.
    static func open(
        at path: String, migrationStep: ((Int) throws -> Void)? = nil, masterKey: (VaultHeader) throws -> SymmetricKey
    ) throws -> UnlockedVault {
        // A key found once is not looked for again for the same slots (scrypt, or the keyring).
        var found: (vaultID: Data, slots: [KeySlot], key: SymmetricKey)?
        let remembered = { (header: VaultHeader) throws -> SymmetricKey in
            if let found, found.vaultID == header.vaultID, found.slots == header.slots { return found.key }
            let key = try masterKey(header)
            found = (header.vaultID, header.slots, key)
            return key
        }
        if migrationStep == nil, let vault = try VaultReadPath.open(at: path, masterKey: remembered) { return vault }
        return try openWithGRDB(at: path, migrationStep: migrationStep, masterKey: remembered)
    }

    /// `open`, every step through GRDB: migrates an older format, and says what is wrong.
    private static func openWithGRDB(
        at path: String, migrationStep: ((Int) throws -> Void)?, masterKey: (VaultHeader) throws -> SymmetricKey
    ) throws -> UnlockedVault {
        let database = try VaultDatabase.open(path: path)
        do {
            let (vault, format) = try unlock(database, path: path, masterKey: masterKey)
            if format < VaultHeader.currentFormat { try VaultMigration.migrate(vault, step: migrationStep) }
            try vault.verify()
            return vault
        } catch {
            // Leave the files as they were: close (in WAL mode, SQLite then removes its -wal and -shm
            // files).
            try? database.close()
            throw error
        }
    }

    /// The vault unlocked, and the format its header had.
    private static func unlock(
        _ database: DatabaseQueue, path: String, masterKey: (VaultHeader) throws -> SymmetricKey
    ) throws -> (UnlockedVault, Int) {
        let header = try VaultDatabase.guarding(path: path) {
            try database.read { db in try VaultHeader.read(db, path: path) }
        }
        guard header.formatVersion <= VaultHeader.currentFormat else {
            throw VaultError.newerFormat(found: header.formatVersion, supported: VaultHeader.currentFormat)
        }
        guard header.formatVersion >= 1 else { throw VaultError.headerTampered }
        try VaultDatabase.guarding(path: path) {
            try database.read { db in try VaultSchema.check(db, format: header.formatVersion) }
        }
        let keys = VaultKeys(master: try masterKey(header), vaultID: header.vaultID)
        guard header.isAuthentic(keys: keys) else { throw VaultError.headerTampered }
        return (UnlockedVault(database: database, path: path, keys: keys, header: header), header.formatVersion)
    }

    /// The vault id in the header at `path`, read without unlocking (it is no secret); the
    /// name under which `tokens unlock` keeps its key.
    public static func identity(at path: String) throws -> VaultIdentity {
        let database = try VaultDatabase.open(path: path)
        defer { try? database.close() }
        let header = try VaultDatabase.guarding(path: path) {
            try database.read { db in try VaultHeader.read(db, path: path) }
        }
        return VaultIdentity(id: header.vaultID)
    }

    /// The header and the empty index of a new vault, in the caller's transaction.
    @discardableResult
    static func writeEmpty(in db: Database, vaultID: Data, slots: [KeySlot], keys: VaultKeys) throws -> VaultHeader {
        let header = VaultHeader.make(
            vaultID: vaultID, slots: slots, revision: 0, manifest: try VaultIndex.empty.store(in: db, keys: keys, replacing: nil),
            keys: keys)
        try write(header, in: db)
        return header
    }

    /// Replaces the header and all key slots with a current-format header, in the caller's
    /// transaction.
    static func write(_ header: VaultHeader, in db: Database) throws {
        try db.execute(sql: "DELETE FROM key_slot")
        for slot in header.slots {
            try VaultRows.execute(
                db, "INSERT INTO key_slot (id, kdf, kdf_n, kdf_r, kdf_p, salt, nonce, wrapped_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    slot.id, slot.kdf, slot.parameters.n, slot.parameters.r, slot.parameters.p, slot.salt, slot.nonce,
                    slot.wrappedKey,
                ])
        }
        try VaultRows.execute(
            db,
            "INSERT OR REPLACE INTO header (id, format_version, vault_id, revision, manifest, mac) VALUES (1, ?, ?, ?, ?, ?)",
            [header.formatVersion, header.vaultID, header.revision, header.manifest, header.mac])
    }

    private static func removeFiles(at path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }
}

extension Vault {
    /// The tables by which a file is known as a vault (damaged or not), as an SQL list.
    static let ownTables = "('header', 'key_slot', 'entry')"

    /// Whether the file at `path` is an SQLite database with any of a vault's tables (opened as
    /// unlocking opens it: nothing written).
    static func hasOwnTables(_ path: String) -> Bool {
        guard let queue = try? VaultDatabase.open(path: path) else { return false }
        defer { try? queue.close() }
        let count = try? queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN \(ownTables)")
        }
        return (count ?? 0) > 0
    }
}
