import Foundation
import GRDB

/// The vault's index opened inside one transaction that reads and changes a few rows in place
/// (`UnlockedVault.readInPlace`, `writeInPlace`): every row read is checked against its digest
/// in the index (its chunk checked against the hash in the sealed part), and every row changed
/// gets its new digest (and an entry its new haystack), so the index stays true of every row
/// without reading the others. A row to add or remove, or an order to change, moves the index's
/// records: that is the whole write's (`NeedsWholeWrite`). The others are left to the next
/// read of every entry or write that checks them all, as a search leaves them.
final class VaultIndexPatch {
    /// Thrown for a change the patch cannot make in place; the transaction rolls back and the
    /// caller writes the whole way.
    struct NeedsWholeWrite: Error {}

    /// One record of a loaded chunk.
    private struct Record {
        let kind: VaultIndexChunk.Kind
        /// `key(_:)` of its id.
        let id: [UInt8]
        let digestOffset: Int
    }

    private let db: Database
    private var sealedPart: [UInt8]
    private let layout: VaultIndexView.Layout
    private var bodies: [Int: [UInt8]] = [:]
    private var records: [Int: [Record]] = [:]
    private var changedChunks: Set<Int> = []
    private var haystacks: [Int: [UInt8]] = [:]
    private var entryPositions: [[UInt8]: Int]?

    /// The index `header` vouches for in `db`; `modified(.entries)` when it does not open.
    init(_ db: Database, keys: VaultKeys, header: VaultHeader) throws {
        self.db = db
        var plaintext: [UInt8] = []
        let layout = try SealedVaultIndex.open(in: db, keys: keys, header: header) { bytes -> VaultIndexView.Layout? in
            plaintext = Array(bytes)
            return VaultIndexView.walk(bytes) { _, _, _ in }
        }
        guard let layout else {
            plaintext.wipe()
            throw VaultError.modified(.entries)
        }
        sealedPart = plaintext
        self.layout = layout
    }

    deinit {
        sealedPart.wipe()
        for position in haystacks.keys { haystacks[position]?.wipe() }
    }

    /// Whether the index's haystacks are this build's (else the whole write makes them again).
    var foldsAsThisBuild: Bool { layout.folding == VaultIndex.haystackVersion }

    // MARK: Checking rows read

    /// Checks the entry row of `id` as read (nil: none): `modified(.entries)` unless the index
    /// holds exactly that row, or holds no entry `id` when there is none.
    func check(entry id: String, _ record: EntryRecord?) throws {
        let position = try entryPosition(id)
        guard let record else {
            if position != nil { throw VaultError.modified(.entries) }
            return
        }
        guard let position, try digest(at: position) == VaultRowDigest.entry(record) else { throw VaultError.modified(.entries) }
    }

    /// Checks a sync row as read (nil: none with `id` in `table`), as `check(entry:)`.
    func check(sync table: SealedSyncRow.Table, id: String, _ row: SealedSyncRow?) throws {
        let position = try syncPosition(table, id)
        guard let row else {
            if position != nil { throw VaultError.modified(.entries) }
            return
        }
        guard let position, try digest(at: position) == VaultRowDigest.sync(row) else { throw VaultError.modified(.entries) }
    }

    // MARK: Recording rows changed

    /// Records the entry row `record` rewritten in place, with the haystack of what it holds.
    func replaced(entry record: EntryRecord, haystack: [UInt8]) throws {
        guard let position = try entryPosition(record.id) else { throw NeedsWholeWrite() }
        try setDigest(VaultRowDigest.entry(record), at: position)
        haystacks[position] = haystack
    }

    /// Records the sync row `row` rewritten in place.
    func replaced(sync row: SealedSyncRow) throws {
        guard let position = try syncPosition(row.table, row.id) else { throw NeedsWholeWrite() }
        try setDigest(VaultRowDigest.sync(row), at: position)
    }

    /// Stores the changed chunks and the sealed part again; the header's manifest for it.
    func store(in db: Database, keys: VaultKeys) throws -> Data {
        let statement = try db.cachedStatement(sql: "UPDATE index_chunk SET body = ? WHERE id = ?")
        var plaintext = haystacks.isEmpty ? sealedPart : try withHaystacksReplaced()
        defer { plaintext.wipe() }
        for chunk in changedChunks.sorted() {
            guard let body = bodies[chunk] else { continue }
            try statement.execute(arguments: [Data(body), chunk])
            guard db.changesCount == 1 else { throw VaultError.modified(.entries) }
            let at = plaintext.count - (layout.chunkHashes.count - chunk) * 32
            plaintext.replaceSubrange(at..<(at + 32), with: body.withUnsafeBytes { VaultIndexChunk.hash($0, position: chunk) })
        }
        let sealed = try SealedVaultIndex.seal(plaintext, keys: keys)
        try sealed.write(db)
        return sealed.binding
    }

    // MARK: Positions

    /// The sealed part with each replaced haystack in place of the old one.
    private func withHaystacksReplaced() throws -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(sealedPart.count + haystacks.values.reduce(0) { $0 + $1.count })
        try sealedPart.withUnsafeBytes { bytes in
            var reader = VaultIndexBytes.Reader(bytes: bytes)
            guard let head = reader.take(VaultIndex.magic.count + 1 + 4) else { throw VaultError.modified(.entries) }
            result += head
            for position in 0..<layout.entries {
                guard let length = reader.length(), let text = reader.take(length) else { throw VaultError.modified(.entries) }
                let haystack = haystacks[position].map { $0[...] } ?? ArraySlice(text)
                VaultIndexBytes.appendLength(haystack.count, to: &result)
                result += haystack
            }
            guard let rest = reader.take(bytes.count - reader.offset) else { throw VaultError.modified(.entries) }
            result += rest
        }
        return result
    }

    /// The position of the entry `id` in the index (the entries' records, in the user's order).
    private func entryPosition(_ id: String) throws -> Int? {
        if entryPositions == nil {
            var positions: [[UInt8]: Int] = [:]
            positions.reserveCapacity(layout.entries)
            let chunks = layout.entries == 0 ? 0 : (layout.entries - 1) / VaultIndex.chunkSize + 1
            for chunk in 0..<chunks {
                for (offset, record) in try loaded(chunk).enumerated() {
                    let position = chunk * VaultIndex.chunkSize + offset
                    guard position < layout.entries else { break }
                    guard record.kind == .entry else { throw VaultError.modified(.entries) }
                    positions[record.id] = position
                }
            }
            entryPositions = positions
        }
        return entryPositions?[Self.key(id)]
    }

    /// The position of a sync row: the account's first after the entries, then the entries' rows
    /// in the order of their ids (as `SealedSyncRow.fetchAll` reads them), found by bisection.
    private func syncPosition(_ table: SealedSyncRow.Table, _ id: String) throws -> Int? {
        let first = layout.entries
        guard first < layout.records else { return nil }
        let hasAccount = try record(at: first).kind == .syncAccount
        if table == .account { return hasAccount && id == "1" ? first : nil }
        let wanted = Array(id.utf8)
        var low = first + (hasAccount ? 1 : 0)
        var high = layout.records
        while low < high {
            let middle = (low + high) / 2
            let found = try record(at: middle)
            guard found.kind == .syncEntry else { throw VaultError.modified(.entries) }
            let text = Self.text(found)
            if text == wanted { return middle }
            if text.lexicographicallyPrecedes(wanted) { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    private func record(at position: Int) throws -> Record {
        let chunk = try loaded(position / VaultIndex.chunkSize)
        let offset = position % VaultIndex.chunkSize
        guard offset < chunk.count else { throw VaultError.modified(.entries) }
        return chunk[offset]
    }

    private func digest(at position: Int) throws -> [UInt8] {
        let record = try record(at: position)
        let body = bodies[position / VaultIndex.chunkSize]!
        return Array(body[record.digestOffset..<(record.digestOffset + VaultRowDigest.length)])
    }

    private func setDigest(_ digest: [UInt8], at position: Int) throws {
        let record = try record(at: position)
        let chunk = position / VaultIndex.chunkSize
        bodies[chunk]!.replaceSubrange(record.digestOffset..<(record.digestOffset + VaultRowDigest.length), with: digest)
        changedChunks.insert(chunk)
    }

    /// Chunk `chunk`'s records, its body read and checked against its hash once.
    private func loaded(_ chunk: Int) throws -> [Record] {
        if let known = records[chunk] { return known }
        let body = Array(try VaultIndexChunk.body(chunk, layout: layout, in: db))
        var found: [Record] = []
        found.reserveCapacity(VaultIndex.chunkSize)
        _ = body.withUnsafeBytes { bytes in
            VaultIndexChunk.walk(bytes) { kind, id, digest in
                let at = digest.baseAddress.map { $0 - bytes.baseAddress! } ?? 0
                found.append(Record(kind: kind, id: [id.isUUID ? 0 : 1] + Array(id.bytes), digestOffset: at))
            }
        }
        bodies[chunk] = body
        records[chunk] = found
        return found
    }

    /// The bytes an id is kept by in `Record.id`: 0 and a UUID's 16, else 1 and its text's.
    private static func key(_ id: String) -> [UInt8] {
        if let uuid = UUID(text: id), uuid.text == id { return [0] + uuid.bytes }
        return [1] + Array(id.utf8)
    }

    /// A record's id as text, in UTF-8.
    private static func text(_ record: Record) -> [UInt8] {
        record.id.first == 0 ? Array(UUID(bytes: Array(record.id.dropFirst()))!.text.utf8) : Array(record.id.dropFirst())
    }
}
