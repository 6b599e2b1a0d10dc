import Crypto
import Foundation

/// Opening a current-format vault without GRDB: one connection through SQLite's C API and one
/// read transaction for the checks unlock makes (header, schema, MAC). The rows are checked
/// when they are read: every one of them by the first read of all entries or write, only the
/// matching ones by a search (`UnlockedVault.search`), so that a command's cost does not grow
/// with the vault. This is the path of every command while `tokens unlock` keeps the key;
/// anything out of the ordinary (an older format to migrate, a damaged or modified header or
/// schema, a busy database) is left to the GRDB path, which says exactly what.
enum VaultReadPath {
    /// The vault at `path`, opened and checked; nil when the GRDB path must open it instead.
    /// Throws only what `masterKey` throws.
    static func open(at path: String, masterKey: (VaultHeader) throws -> SymmetricKey) throws -> UnlockedVault? {
        guard (try? VaultDatabase.checkFirstBytes(path)) != nil,
            let opened = try? SQLiteReadConnection(path: path, busyTimeout: VaultDatabase.busyTimeout)
        else { return nil }
        // Used by this function alone until it is handed to the vault, whose mutex guards it
        // (region analysis cannot see that `check` keeps no reference to it).
        nonisolated(unsafe) let connection = opened
        let checked: Checked
        do {
            checked = try check(connection, path: path, masterKey: masterKey)
        } catch let error as MasterKeyError {
            connection.close()
            throw error.error
        } catch {
            connection.close()
            return nil
        }
        return UnlockedVault(
            reading: connection, path: path, keys: checked.keys, header: checked.header, dataVersion: checked.dataVersion,
            records: nil)
    }

    /// What one read transaction found, once every check passed.
    private struct Checked {
        let header: VaultHeader
        let keys: VaultKeys
        let dataVersion: Int64
    }

    private static func check(
        _ connection: SQLiteReadConnection, path: String, masterKey: (VaultHeader) throws -> SymmetricKey
    ) throws -> Checked {
        // No `PRAGMA quick_check` (a tenth of a millisecond): every row used is authenticated
        // by the header's MAC and the index when it is read, and a damaged page SQLite meets
        // here is an error, which hands the file to the GRDB path: that one runs quick_check.
        return try connection.transaction {
            try connection.readThroughMapping()
            let header = try VaultHeader.read(connection, path: path)
            guard header.formatVersion == VaultHeader.currentFormat, try VaultSchema.matches(connection, format: header.formatVersion)
            else { throw LeftToGRDBPath() }
            let master: SymmetricKey
            do { master = try masterKey(header) } catch { throw MasterKeyError(error: error) }
            let keys = VaultKeys(master: master, vaultID: header.vaultID)
            guard header.isAuthentic(keys: keys) else { throw LeftToGRDBPath() }
            return Checked(header: header, keys: keys, dataVersion: try connection.dataVersion())
        }
    }

    /// Something the GRDB path is to look at.
    private struct LeftToGRDBPath: Error {}

    /// An error of `masterKey`: the caller's to see.
    private struct MasterKeyError: Error {
        let error: any Error
    }
}
