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
        guard let id, let seq, let deleted, let entryKeyVersion, let nonce, let ciphertext, let changed else { return }
        let payload = EntryPayload(isDeleted: deleted, keyVersion: entryKeyVersion, nonce: Array(nonce), ciphertext: Array(ciphertext))
        entries.append(SyncEntry(id: EntryID(id), sequence: seq, payload: payload, changedAt: changed))
    }
}
