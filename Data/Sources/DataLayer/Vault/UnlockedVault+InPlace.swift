import Foundation
import GRDB

/// Reads and writes of a few rows through the index (`VaultIndexPatch`): each row read is
/// checked against its digest, each row changed sealed into the index again, and no other row
/// read, hashed or decrypted. What a partial sync round does, whatever the vault's size.
extension UnlockedVault {
    /// Runs `body` in a read transaction with the index open for checking the rows it reads.
    func readInPlace<T>(_ body: (Database, VaultKeys, VaultIndexPatch) throws -> T) throws -> T {
        try readChecked { db, keys, header in try body(db, keys, try VaultIndexPatch(db, keys: keys, header: header)) }
    }

    /// Runs `body` in a write transaction with the index open for checking the rows it reads and
    /// recording those it changes, then seals the index and the header again. Nil, with nothing
    /// written, when `body` (or the index) needs the whole write: the caller writes the whole way.
    func writeInPlace<T>(_ body: (Database, VaultKeys, VaultIndexPatch) throws -> T) throws -> T? {
        do {
            return try writeChecked { db, keys, header -> (result: T, manifest: Data) in
                let patch = try VaultIndexPatch(db, keys: keys, header: header)
                guard patch.foldsAsThisBuild else { throw VaultIndexPatch.NeedsWholeWrite() }
                let result = try body(db, keys, patch)
                return (result, try patch.store(in: db, keys: keys))
            }
        } catch is VaultIndexPatch.NeedsWholeWrite {
            return nil
        }
    }
}
