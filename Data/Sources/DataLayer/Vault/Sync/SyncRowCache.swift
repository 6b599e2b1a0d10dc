import Foundation
import Synchronization

/// The sync entry rows an unlocked vault opened, each with the sealed bytes it was opened from.
/// A row read again with the same id, version, nonce and ciphertext is the same state (opening
/// is deterministic), so it is not decrypted and decoded again: a sync round's reads (status,
/// snapshot, commit) open each row once, and the screen's later rounds and edits open only the
/// rows that changed. The rows' authenticity is not cached: the manifest under the header's MAC
/// covers these bytes at every read and write, as before. Held while the vault is unlocked;
/// emptied when its keys change and when it closes.
final class SyncRowCache: Sendable {
    /// One opened row: the bytes it was opened from and what they hold.
    struct Opened: Sendable {
        let version: Int
        let nonce: Data
        let ciphertext: Data
        let state: SyncEntryState

        init(_ row: SealedSyncRow, state: SyncEntryState) {
            version = row.version
            nonce = row.nonce
            ciphertext = row.ciphertext
            self.state = state
        }

        func holds(_ row: SealedSyncRow) -> Bool {
            version == row.version && nonce == row.nonce && ciphertext == row.ciphertext
        }
    }

    private let rows = Mutex<[String: Opened]>([:])
    private let openings = Atomic<Int>(0)

    /// How many rows were decrypted and decoded (read from, not served by, this cache), for tests.
    var opens: Int { openings.load(ordering: .relaxed) }

    /// Counts one row decrypted and decoded.
    func countOpening() {
        openings.add(1, ordering: .relaxed)
    }

    /// The rows opened so far, by id.
    func opened() -> [String: Opened] {
        rows.withLock { $0 }
    }

    /// Keeps exactly `opened` (a read of every row: rows gone since are forgotten).
    func keep(_ opened: [String: Opened]) {
        rows.withLock { $0 = opened }
    }

    /// Keeps one row just sealed from `state`.
    func keep(_ row: SealedSyncRow, state: SyncEntryState) {
        rows.withLock { $0[row.id] = Opened(row, state: state) }
    }

    func forget(_ id: String) {
        rows.withLock { $0[id] = nil }
    }

    func clear() {
        rows.withLock { $0 = [:] }
    }
}
