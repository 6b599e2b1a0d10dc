import CByteSearch
import Domain
import Foundation

/// The index of the vault's rows (format 4; in pieces from format 5): each entry's id, the digest of its stored row and the
/// folded text a search looks in (`AccountQuery.haystack`), in the user's order; and each sync
/// row's digest. It stands for the manifest: a command finds the entries a query matches and
/// proves each of them current by its digest, without reading, hashing or decrypting the
/// others.
///
/// Stored in two parts, so that a search opens as few bytes as it can: the haystacks (secret)
/// with the SHA-256 of each chunk, sealed in pieces (`SealedVaultIndex`) that the header's MAC
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
/// and their chunks' hashes is copied out of it. It is read whole or piece by piece as stored
/// (`SealedVaultIndex.openPieces`): no haystack spans two pieces.
enum VaultIndexView {
    /// What the sealed part says besides the haystacks.
    struct Layout {
        let folding: UInt8
        /// The entries (the first records); the sync rows follow, the account's first.
        let entries: Int
        let records: Int
        let chunkHashes: [[UInt8]]
    }

    /// The bytes before the first haystack's length: the magic, the haystack version and the
    /// number of entries.
    static let headLength = VaultIndex.magic.count + 1 + 4

    /// The positions of the entries whose haystack `query` matches, in order, and the layout;
    /// nil when `bytes` is no sealed part of this build's haystacks (the caller searches
    /// otherwise).
    static func matching(_ query: AccountQuery, in bytes: UnsafeRawBufferPointer) -> (positions: [Int], layout: Layout)? {
        var matcher = Matcher(query)
        matcher.read(bytes)
        return matcher.finished
    }

    /// A search through the sealed part, fed one piece at a time.
    ///
    /// The query's longest word is looked for through the whole piece first (`offset(of:)`),
    /// and only a haystack that holds it is tested: at 10 000 accounts, testing every haystack
    /// byte by byte took a tenth of `tokens code`.
    struct Matcher {
        private let query: AccountQuery
        private let needle: [UInt8]
        private var walker = Walker()
        private var positions: [Int] = []

        init(_ query: AccountQuery) {
            self.query = query
            needle = query.longestTerm ?? []
        }

        /// Reads the next piece; with `haystacks` (what its row says it holds), a piece
        /// without the query's longest word is passed without a walk.
        mutating func read(_ bytes: UnsafeRawBufferPointer, haystacks: Int? = nil) {
            var found: [Int] = []
            let (query, needle) = (query, needle)
            // Where the next occurrence of `needle` in this piece starts, at or after the
            // haystack last searched from; `bytes.count` when there is none.
            var next = -1
            if let haystacks, !needle.isEmpty {
                next = VaultIndexView.offset(of: needle, in: bytes, from: 0)
                if next == bytes.count { return walker.pass(bytes, haystacks: haystacks) }
            }
            walker.read(bytes, haystacks: haystacks) { position, start, count in
                guard !needle.isEmpty else { return found.append(position) }
                if next < start { next = VaultIndexView.offset(of: needle, in: bytes, from: start) }
                if next + needle.count <= start + count,
                    query.matches(haystack: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
                {
                    found.append(position)
                }
            }
            positions += found
        }

        /// The positions matched, in order, and the layout; nil when the pieces read are no
        /// whole sealed part of this build's haystacks.
        var finished: (positions: [Int], layout: Layout)? {
            guard let layout = walker.finished, layout.folding == VaultIndex.haystackVersion else { return nil }
            return (positions, layout)
        }
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
        var walker = Walker()
        walker.read(bytes, haystack: haystack)
        return walker.finished
    }

    /// One piece of a sealed part as stored: where it lies in the whole and how many haystacks
    /// it holds.
    struct Piece: Equatable {
        let range: Range<Int>
        let haystacks: Int
    }

    /// Where a sealed part is cut into pieces of about `size` bytes: only before a haystack's
    /// length, so that each haystack lies in one piece, and after the last haystack, so that
    /// the records' count and the chunks' hashes are a piece of their own and a piece without
    /// the query's word can be passed without a walk (`Walker.pass`). One piece when `bytes` is
    /// no sealed part (the reader refuses it as a whole).
    static func pieces(of bytes: UnsafeRawBufferPointer, size: Int) -> [Piece] {
        var pieces: [Piece] = []
        var start = 0
        var haystacks = 0
        var recordStart = headLength
        let layout = walk(bytes) { _, haystackStart, count in
            if haystackStart + count - start > size, recordStart > start, haystacks > 0 {
                pieces.append(Piece(range: start..<recordStart, haystacks: haystacks))
                (start, haystacks) = (recordStart, 0)
            }
            haystacks += 1
            recordStart = haystackStart + count
        }
        guard layout != nil else { return [Piece(range: 0..<bytes.count, haystacks: 0)] }
        pieces.append(Piece(range: start..<recordStart, haystacks: haystacks))
        pieces.append(Piece(range: recordStart..<bytes.count, haystacks: 0))
        return pieces
    }

    /// Reads a sealed part whole or in pieces, in order: the head in the first, then haystacks
    /// (each within one piece), then the records' count and the chunks' hashes.
    struct Walker {
        private var folding: UInt8 = 0
        private var entries: Int?
        private var position = 0
        /// What follows the last haystack.
        private var rest: [UInt8] = []
        private var broken = false

        /// Reads the next piece, calling `haystack` with each entry's position and where its
        /// haystack lies in `bytes` (start and count). With `haystacks` (what the piece's row
        /// says it holds), a piece that holds another number is no piece of a sealed part.
        mutating func read(
            _ bytes: UnsafeRawBufferPointer, haystacks: Int? = nil, haystack: (_ position: Int, _ start: Int, _ count: Int) -> Void
        ) {
            var reader = VaultIndexBytes.Reader(bytes: bytes)
            guard !broken, readHead(&reader) else { return }
            let entries = entries ?? 0
            let first = position
            // Offsets, not slices: a search runs this for every entry of the vault.
            while position < entries, !reader.isAtEnd {
                guard let length = reader.length(), bytes.count - reader.offset >= length else {
                    broken = true
                    return
                }
                haystack(position, reader.offset, length)
                reader.offset += length
                position += 1
            }
            if let haystacks, haystacks != position - first {
                broken = true
                return
            }
            rest += UnsafeRawBufferPointer(rebasing: bytes[reader.offset...])
        }

        /// Passes the next piece, which its row says holds `haystacks` haystacks and nothing
        /// after them (the rows are sealed: what they say is what Tokens wrote), without
        /// walking them: a search passes so every piece its word is not in.
        mutating func pass(_ bytes: UnsafeRawBufferPointer, haystacks: Int) {
            guard haystacks > 0 else { return read(bytes, haystacks: 0) { _, _, _ in } }
            var reader = VaultIndexBytes.Reader(bytes: bytes)
            guard !broken, readHead(&reader) else { return }
            guard let entries, haystacks <= entries - position else {
                broken = true
                return
            }
            position += haystacks
        }

        /// Reads the head if this is the first piece; false (and broken) if it is no head.
        private mutating func readHead(_ reader: inout VaultIndexBytes.Reader) -> Bool {
            guard entries == nil else { return true }
            guard reader.take(VaultIndex.magic.count).map({ $0.elementsEqual(VaultIndex.magic) }) == true,
                let folding = reader.byte(), let entries = reader.count()
            else {
                broken = true
                return false
            }
            (self.folding, self.entries) = (folding, entries)
            return true
        }

        /// The layout, once every piece is read; nil if they were no whole sealed part.
        var finished: Layout? {
            guard !broken, let entries, position == entries else { return nil }
            return rest.withUnsafeBytes { bytes -> Layout? in
                var reader = VaultIndexBytes.Reader(bytes: bytes)
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
    }
}
