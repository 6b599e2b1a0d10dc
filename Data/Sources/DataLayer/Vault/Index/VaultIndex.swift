import CByteSearch
import Domain
import Foundation

/// Format 4's index of the vault's rows: each entry's id, the digest of its stored row and the
/// folded text a search looks in (`AccountQuery.haystack`), in the user's order; and each sync
/// row's digest. It stands for the manifest: a command finds the entries a query matches and
/// proves each of them current by its digest, without reading, hashing or decrypting the
/// others.
///
/// Stored in two parts, so that a search opens as few bytes as it can: the haystacks (secret)
/// with the SHA-256 of each chunk, sealed in one row (`SealedVaultIndex`) that the header's MAC
/// covers; and the ids and digests of the rows (no secret: the file holds both in the clear),
/// in chunks of `chunkSize` records in the `index_chunk` table, each bound to its position by
/// its hash in the sealed part. Records are the entries in order, then the sync rows.
struct VaultIndex: Sendable, Equatable {
    /// One entry's place in the index.
    struct Entry: Sendable, Equatable {
        let id: String
        let digest: [UInt8]
        let haystack: [UInt8]
    }

    /// One sync row's digest.
    struct SyncRow: Sendable, Hashable {
        let table: SealedSyncRow.Table
        let id: String
        let digest: [UInt8]
    }

    /// The entries, in the user's order.
    var entries: [Entry]
    var sync: [SyncRow]
    /// The `haystackVersion` of the build that folded the haystacks.
    var folding: UInt8

    /// The version of `AccountQuery`'s folding the haystacks were made with: an index made by a
    /// build that folds otherwise is searched the slow way, and its haystacks made again at the
    /// next write.
    static let haystackVersion: UInt8 = 1

    /// Records a chunk holds (the last holds the rest).
    static let chunkSize = 256

    static let empty = VaultIndex(entries: [], sync: [])

    static let magic: [UInt8] = Array("TKIX".utf8)

    init(entries: [Entry], sync: [SyncRow], folding: UInt8 = Self.haystackVersion) {
        self.entries = entries
        self.sync = sync
        self.folding = folding
    }

    /// The two parts as stored.
    struct Encoded {
        /// To be sealed: the magic, the haystack version, the number of entries and each one's
        /// haystack (its length in base-128 digits, least significant first, then its bytes),
        /// the number of records and each chunk's hash; counts are big-endian.
        var sealedPart: [UInt8]
        /// Each chunk's records: kind, id, digest.
        var chunks: [[UInt8]]
    }

    func encoded() -> Encoded {
        var chunks: [[UInt8]] = []
        var chunk: [UInt8] = []
        var counted = 0
        func record(_ kind: VaultIndexChunk.Kind, _ id: String, _ digest: [UInt8]) {
            counted += 1
            chunk.append(kind.rawValue)
            VaultIndexBytes.appendID(id, to: &chunk)
            chunk += digest
            if counted % Self.chunkSize == 0 {
                chunks.append(chunk)
                chunk = []
            }
        }
        for entry in entries { record(.entry, entry.id, entry.digest) }
        for row in sync { record(VaultIndexChunk.Kind(row.table), row.id, row.digest) }
        if !chunk.isEmpty { chunks.append(chunk) }

        var sealed = Self.magic
        sealed.reserveCapacity(16 + entries.reduce(0) { $0 + 4 + $1.haystack.count } + chunks.count * 32)
        sealed.append(folding)
        VaultIndexBytes.append(UInt32(entries.count), to: &sealed)
        for entry in entries {
            VaultIndexBytes.appendLength(entry.haystack.count, to: &sealed)
            sealed += entry.haystack
        }
        VaultIndexBytes.append(UInt32(counted), to: &sealed)
        VaultIndexBytes.append(UInt32(chunks.count), to: &sealed)
        for (position, body) in chunks.enumerated() { sealed += body.withUnsafeBytes { VaultIndexChunk.hash($0, position: position) } }
        return Encoded(sealedPart: sealed, chunks: chunks)
    }

    /// The index the two parts hold; nil unless `chunks` are exactly the chunks the sealed part
    /// hashes, in order, and every record is whole.
    init?(sealedPart: UnsafeRawBufferPointer, chunks: [Data]) {
        var haystacks: [[UInt8]] = []
        guard
            let layout = VaultIndexView.walk(
                sealedPart, haystack: { _, start, count in haystacks.append(Array(sealedPart[start..<(start + count)])) }),
            layout.chunkHashes.count == chunks.count
        else { return nil }
        var records: [(kind: VaultIndexChunk.Kind, id: String, digest: [UInt8])] = []
        records.reserveCapacity(layout.records)
        for (position, body) in chunks.enumerated() {
            let whole = body.withUnsafeBytes { body -> Bool in
                VaultIndexChunk.isChunk(body, at: position, of: layout)
                    && VaultIndexChunk.walk(body) { kind, id, digest in records.append((kind, id.text, Array(digest))) }
            }
            guard whole else { return nil }
        }
        guard records.count == layout.records, records.count >= haystacks.count,
            records.prefix(haystacks.count).allSatisfy({ $0.kind == .entry })
        else { return nil }
        var sync: [SyncRow] = []
        for record in records.dropFirst(haystacks.count) {
            guard let table = record.kind.table else { return nil }
            sync.append(SyncRow(table: table, id: record.id, digest: record.digest))
        }
        entries = zip(records, haystacks).map { Entry(id: $0.id, digest: $0.digest, haystack: $1) }
        self.sync = sync
        folding = layout.folding
    }
}

/// The sealed part read in place, for a search: nothing but the matching entries' positions
/// and their chunks' hashes is copied out of it.
enum VaultIndexView {
    /// What the sealed part says besides the haystacks.
    struct Layout {
        let folding: UInt8
        /// The entries (the first records); the sync rows follow, the account's first.
        let entries: Int
        let records: Int
        let chunkHashes: [[UInt8]]
    }

    /// The positions of the entries whose haystack `query` matches, in order, and the layout;
    /// nil when `bytes` is no sealed part of this build's haystacks (the caller searches
    /// otherwise).
    ///
    /// The query's longest word is looked for through the whole buffer first (`offset(of:)`), and only
    /// a haystack that holds it is tested: at 10 000 accounts, testing every haystack byte by
    /// byte took a tenth of `tokens code`.
    static func matching(_ query: AccountQuery, in bytes: UnsafeRawBufferPointer) -> (positions: [Int], layout: Layout)? {
        var positions: [Int] = []
        let needle = query.longestTerm ?? []
        // Where the next occurrence of `needle` starts, at or after the haystack last searched
        // from; `bytes.count` when there is none.
        var next = -1
        guard
            let layout = walk(
                bytes,
                haystack: { position, start, count in
                    guard !needle.isEmpty else { return positions.append(position) }
                    if next < start { next = Self.offset(of: needle, in: bytes, from: start) }
                    if next + needle.count <= start + count,
                        query.matches(haystack: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
                    {
                        positions.append(position)
                    }
                }),
            layout.folding == VaultIndex.haystackVersion
        else { return nil }
        return (positions, layout)
    }

    /// Where the first occurrence of `needle` (not empty) in `bytes` at or after `start` begins;
    /// `bytes.count` if there is none.
    static func offset(of needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        let found = needle.withUnsafeBytes { needle in
            tokens_find_bytes(base + start, bytes.count - start, needle.baseAddress, needle.count)
        }
        return found.map { UnsafeRawPointer($0) - base } ?? bytes.count
    }

    /// Calls `haystack` with each entry's position and where its haystack lies in `bytes` (start
    /// and count); the layout, or nil if `bytes` is not a whole sealed part.
    static func walk(_ bytes: UnsafeRawBufferPointer, haystack: (_ position: Int, _ start: Int, _ count: Int) -> Void) -> Layout? {
        var reader = VaultIndexBytes.Reader(bytes: bytes)
        guard reader.take(VaultIndex.magic.count).map({ $0.elementsEqual(VaultIndex.magic) }) == true,
            let folding = reader.byte(), let entries = reader.count()
        else { return nil }
        // Offsets, not slices: a search runs this for every entry of the vault.
        for position in 0..<entries {
            guard let length = reader.length(), bytes.count - reader.offset >= length else { return nil }
            haystack(position, reader.offset, length)
            reader.offset += length
        }
        guard let records = reader.count(), let chunks = reader.count(),
            chunks == (records + VaultIndex.chunkSize - 1) / VaultIndex.chunkSize
        else { return nil }
        var hashes: [[UInt8]] = []
        hashes.reserveCapacity(chunks)
        for _ in 0..<chunks {
            guard let hash = reader.take(32) else { return nil }
            hashes.append(Array(hash))
        }
        guard reader.isAtEnd, records >= entries else { return nil }
        return Layout(folding: folding, entries: entries, records: records, chunkHashes: hashes)
    }
}
