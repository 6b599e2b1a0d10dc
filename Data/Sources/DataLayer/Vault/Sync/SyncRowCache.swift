import Foundation
import Synchronization

/// The sync entry rows an unlocked vault opened, each with what identifies the sealed bytes it
/// was opened from: its version, its nonce, and its ciphertext's length and GCM tag. A row read
/// again with the same id, version, nonce, length and tag is the same sealing, so it is not
/// decrypted and decoded again (every sealing draws a new nonce, and under one key and nonce
/// the tag is a MAC of the ciphertext; bytes changed behind a kept tag are a modified row, which
/// the manifest check below refuses before any row is used): a sync round's reads (status,
/// snapshot, commit) open each row once, and the screen's later rounds and edits open only the
/// rows that changed. The rows' authenticity is not cached: the manifest under the header's MAC
/// covers these bytes at every read and write, as before. Held while the vault is unlocked;
/// emptied when its keys change and when it closes.
final class SyncRowCache: Sendable {
    /// One opened row: the bytes it was opened from and what they hold. A class: the table
    /// holds a reference a row, not a kilobyte of state inline (at 10 000 rows its storage,
    /// twice over while it grows, was the largest block of a join's memory).
    final class Opened: Sendable {
        let version: Int
        let nonce: Data
        let length: Int
        /// The ciphertext's last 16 bytes (GCM's tag), not the whole of it: the kilobytes of
        /// every row's ciphertext were, at 10 000 rows, a third of a join's memory.
        let tag: [UInt8]
        let state: SyncEntryState

        init(_ row: SealedSyncRow, state: SyncEntryState) {
            version = row.version
            nonce = row.nonce
            length = row.ciphertext.count
            tag = Array(row.ciphertext.suffix(16))
            self.state = state
        }

        func holds(_ row: SealedSyncRow) -> Bool {
            version == row.version && nonce == row.nonce && length == row.ciphertext.count && row.ciphertext.suffix(16).elementsEqual(tag)
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

    /// Keeps one row opened from the file (a read by id: the other rows stay as they are).
    func keep(_ id: String, _ opened: Opened) {
        rows.withLock { $0[id] = opened }
    }

    func forget(_ id: String) {
        rows.withLock { $0[id] = nil }
    }

    func clear() {
        rows.withLock { $0 = [:] }
    }
}
