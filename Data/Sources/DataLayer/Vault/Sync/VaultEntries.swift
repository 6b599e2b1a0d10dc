import Domain
import Foundation
import GRDB

/// Writes a sync round's records into the `entry` table, sealed as every entry is.
enum VaultEntries {
    /// The entry `record` describes: added, changed, or removed when the record is deleted.
    static func apply(_ record: SyncRecord, db: Database, keys: VaultKeys) throws {
        let stored = try EntryRecord.fetchOne(db, id: record.id.uuidString)
        let previous = try stored.map { try EntryCipher.open($0, keys: keys) }
        guard let account = SyncRecording.account(from: record, previous: previous) else {
            if stored != nil { try VaultRows.execute(db, "DELETE FROM entry WHERE id = ?", [record.id.uuidString]) }
            return
        }
        if let stored {
            guard account != previous else { return }
            let sealed = try EntryCipher.seal(account, version: stored.version + 1, keys: keys)
            try VaultRows.reseal(stored, updatedAt: account.updatedAt.timeIntervalSince1970, sealed: sealed, db)
        } else {
            let sealed = try EntryCipher.seal(account, version: 1, keys: keys)
            let order = (try Int.fetchOne(db, sql: "SELECT MAX(sort_order) FROM entry") ?? -1) + 1
            try VaultRows.execute(
                db,
                "INSERT INTO entry (id, sort_order, created_at, updated_at, version, nonce, ciphertext) VALUES (?, ?, ?, ?, 1, ?, ?)",
                [
                    account.id.uuidString, order, account.createdAt.timeIntervalSince1970, account.updatedAt.timeIntervalSince1970,
                    sealed.nonce, sealed.ciphertext,
                ])
        }
    }

    /// The entries in the order of their sync positions (equal positions by id); an entry the
    /// sync state does not know stays after them.
    static func orderByPosition(_ states: [UUID: (state: SyncEntryState, version: Int)], db: Database) throws {
        let stored = try String.fetchAll(db, sql: "SELECT id FROM entry ORDER BY sort_order, created_at")
        let known = stored.compactMap { id in UUID(uuidString: id).flatMap { states[$0]?.state.record } }
            .sorted { ($0.position.value, $0.id.uuidString) < ($1.position.value, $1.id.uuidString) }
            .map(\.id.uuidString)
        let knownIDs = Set(known)
        let order = known + stored.filter { !knownIDs.contains($0) }
        for (index, id) in order.enumerated() {
            try db.execute(sql: "UPDATE entry SET sort_order = ? WHERE id = ? AND sort_order != ?", arguments: [index, id, index])
        }
    }
}
