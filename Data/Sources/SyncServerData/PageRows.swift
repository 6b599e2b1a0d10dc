import Foundation
import SyncServer

/// A page as `PostgresStatements.page` and `pageForToken` return it: every row holds the
/// account's bounds and head, and an entry, or NULLs where no entry follows the cursor.
struct PageRows {
    private var bounds = PullBounds(horizon: 0, keyVersion: 1)
    private var head: Int64 = 0
    private var entries: [SyncEntry] = []

    var page: StoredPage { StoredPage(bounds: bounds, entries: entries, head: head) }

    mutating func add(
        _ horizon: Int64, _ keyVersion: Int32, _ head: Int64, _ id: UUID?, _ seq: Int64?, _ deleted: Bool?, _ entryKeyVersion: Int32?,
        _ nonce: Data?, _ ciphertext: Data?, _ changed: Date?
    ) {
        (bounds, self.head) = (PullBounds(horizon: horizon, keyVersion: keyVersion), head)
        if let entry = Self.entry(id, seq, deleted, entryKeyVersion, nonce, ciphertext, changed) { entries.append(entry) }
    }

    /// An entry's columns as a row with a LEFT JOIN returns them: nil where they are NULL.
    static func entry(
        _ id: UUID?, _ seq: Int64?, _ deleted: Bool?, _ keyVersion: Int32?, _ nonce: Data?, _ ciphertext: Data?, _ changed: Date?
    ) -> SyncEntry? {
        guard let id, let seq, let deleted, let keyVersion, let nonce, let ciphertext, let changed else { return nil }
        let payload = EntryPayload(isDeleted: deleted, keyVersion: keyVersion, nonce: Array(nonce), ciphertext: Array(ciphertext))
        return SyncEntry(id: EntryID(id), sequence: seq, payload: payload, changedAt: changed)
    }
}
