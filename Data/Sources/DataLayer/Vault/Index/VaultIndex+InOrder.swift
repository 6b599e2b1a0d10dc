import Foundation

extension VaultIndex {
    /// What a read of every entry checks its rows against without copying the index out: the
    /// index's chunks, each one the layout `header` vouches for, and the sync rows. Read apart
    /// from the comparison (`covers`) so that a reader can read it while other threads still
    /// hash the rows.
    struct StoredInOrder {
        let chunks: [Data]
        let layout: VaultIndexView.Layout
        let sync: [SealedSyncRow]

        /// Nil when the index is no whole sealed index (the caller then reads it whole).
        static func read(_ db: some VaultQuerying, keys: VaultKeys, header: VaultHeader, sync: [SealedSyncRow]) throws -> Self? {
            guard let chunks = try storedChunks(db), let layout = try UnlockedVault.indexLayout(db, keys: keys, header: header),
                layout.chunkHashes.count == chunks.count, chunks.indices.allSatisfy({ isChunk(chunks[$0], at: $0, of: layout) })
            else { return nil }
            return Self(chunks: chunks, layout: layout, sync: sync)
        }

        private static func isChunk(_ body: Data, at position: Int, of layout: VaultIndexView.Layout) -> Bool {
            body.withUnsafeBytes { VaultIndexChunk.isChunk($0, at: position, of: layout) }
        }

        /// Whether the index names exactly `records`, in their order, with `digests` (each
        /// record's `VaultRowDigest.entry`), then exactly the sync rows: what `covers` proves of
        /// an index read whole, proved where the index lies (no haystack, id or digest copied).
        /// The `entry` table's primary key keeps the ids distinct, so a match position by
        /// position is a match by id. False when the index is not in the rows' order: only then
        /// does the caller read it whole to decide.
        func covers(_ records: [EntryRecord], digests: [[UInt8]]) -> Bool {
            guard layout.entries == records.count, layout.records == records.count + sync.count, digests.count == records.count
            else { return false }
            var position = 0
            var inOrder = true
            var found: [SyncRow] = []
            for body in chunks {
                let whole = body.withUnsafeBytes { body in
                    VaultIndexChunk.walk(body) { kind, id, digest in
                        defer { position += 1 }
                        guard inOrder else { return }
                        if position < records.count {
                            inOrder = kind == .entry && id.spells(records[position].id) && digest.elementsEqual(digests[position])
                        } else if let table = kind.table {
                            found.append(SyncRow(table: table, id: id.text, digest: Array(digest)))
                        } else {
                            inOrder = false
                        }
                    }
                }
                guard whole, inOrder else { return false }
            }
            guard position == layout.records else { return false }
            return Set(found) == Set(sync.map { SyncRow(table: $0.table, id: $0.id, digest: VaultRowDigest.sync($0)) })
        }
    }
}

extension VaultIndexBytes.ID {
    /// Whether this is the id `text`: the same bytes, or for a UUID its canonical text
    /// (upper-case hex, 8-4-4-4-12, as `appendID` stores only that), compared without making
    /// either into the other.
    func spells(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard isUUID else { return utf8.elementsEqual(bytes) }
            guard utf8.count == 36, bytes.count == 16 else { return false }
            var at = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard utf8[at] == UInt8(ascii: "-") else { return false }
                    at += 1
                }
                guard utf8[at] == Self.upperHex[Int(byte >> 4)], utf8[at + 1] == Self.upperHex[Int(byte & 0x0F)] else { return false }
                at += 2
            }
            return true
        }
    }

    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)
}
