import Domain
import Foundation
import GRDB

/// Writes a sync round's records into the `entry` table, sealed as every entry is.
enum VaultEntries {
    /// The entry `record` describes: added, changed, or removed when the record is deleted.
    static func apply(_ record: SyncRecord, db: Database, keys: VaultKeys) throws {
        let stored = try EntryTable.row(db, id: record.id.uuidString)
        let previous = try stored.map { try EntryCipher.open($0, keys: keys) }
        guard let account = SyncRecording.account(from: record, previous: previous) else {
            if stored != nil { try EntryTable.delete(record.id.uuidString, db) }
            return
        }
        if let stored {
            guard account != previous else { return }
            let sealed = try EntryCipher.seal(account, version: stored.version + 1, keys: keys)
            try EntryTable.reseal(stored, updatedAt: account.updatedAt.timeIntervalSince1970, sealed: sealed, db)
        } else {
            try EntryTable.insert([account], keys: keys, db)
        }
    }

    /// The entries in the order of their sync positions (equal positions by id); an entry the
    /// sync state does not know stays after them.
    static func orderByPosition(_ states: [UUID: (state: SyncEntryState, version: Int)], db: Database) throws {
        let stored = try EntryTable.orderedIDs(db)
        let known = stored.compactMap { id in UUID(uuidString: id).flatMap { states[$0]?.state.record } }
            .sorted { ($0.position.value, $0.id.uuidString) < ($1.position.value, $1.id.uuidString) }
            .map(\.id.uuidString)
        let knownIDs = Set(known)
        try EntryTable.order(known + stored.filter { !knownIDs.contains($0) }, db)
    }
}
