import Domain
import Foundation
import GRDB

/// Writes a sync round's records into the `entry` table, sealed as every entry is.
enum VaultEntries {
    /// The entry `record` describes: changed, or removed when the record is deleted. An entry to
    /// add is returned, for the caller to insert with the round's others in one batch: each
    /// insert scans the table for the last sort order, so inserting each record on its own made a join
    /// quadratic.
    /// With `patch` (a write in place), the entry read is checked against the index and the
    /// one written recorded in it; one to add or remove needs the whole write.
    static func apply(_ record: SyncRecord, db: Database, keys: VaultKeys, patch: VaultIndexPatch? = nil) throws -> Account? {
        let stored = try EntryTable.row(db, id: record.id.text)
        try patch?.check(entry: record.id.text, stored)
        let previous = try stored.map { try EntryCipher.open($0, keys: keys) }
        guard let account = SyncRecording.account(from: record, previous: previous) else {
            if stored != nil {
                if patch != nil { throw VaultIndexPatch.NeedsWholeWrite() }
                try EntryTable.delete(record.id.text, db)
            }
            return nil
        }
        guard let stored else {
            if patch != nil { throw VaultIndexPatch.NeedsWholeWrite() }
            return account
        }
        guard account != previous else { return nil }
        try reseal(stored, as: account, keys: keys, patch: patch, db)
        return nil
    }

    /// `record` sealed again holding `account`, and, in a write in place, recorded in the index.
    static func reseal(_ record: EntryRecord, as account: Account, keys: VaultKeys, patch: VaultIndexPatch?, _ db: Database) throws {
        let sealed = try EntryCipher.seal(account, version: record.version + 1, keys: keys)
        let written = try EntryTable.reseal(record, updatedAt: account.updatedAt.timeIntervalSince1970, sealed: sealed, db)
        try patch?.replaced(entry: written, haystack: AccountQuery.haystack(for: account))
    }

    /// The entries in the order of their sync positions (equal positions by id); an entry the
    /// sync state does not know stays after them.
    static func orderByPosition(_ positions: [UUID: FractionalPosition], db: Database) throws {
        let stored = try EntryTable.orderedIDs(db)
        // Each id's text made once, not at each comparison.
        let known = stored.compactMap { id in UUID(text: id).flatMap { uuid in positions[uuid].map { (position: $0, id: uuid.text) } } }
            .sorted { ($0.position, $0.id) < ($1.position, $1.id) }
            .map(\.id)
        let knownIDs = Set(known)
        try EntryTable.order(known + stored.filter { !knownIDs.contains($0) }, db)
    }
}
