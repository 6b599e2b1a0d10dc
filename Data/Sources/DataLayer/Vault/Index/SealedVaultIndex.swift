import Crypto
import Domain
import Foundation
import GRDB

/// The `index_piece` rows (format 5): the index's sealed part (`VaultIndex`) cut into pieces
/// of about `pieceSize` bytes, only between two haystacks (the records' count and the chunks'
/// hashes a piece of their own), each sealed with AES-256-GCM under the entries key (its
/// associated data binds the vault, the piece's position and the number of haystacks it holds)
/// and stored as one row (that number; nonce, ciphertext, tag). The header's manifest, under the header's MAC, is the
/// `binding` of every piece's nonce and tag, in order, and of their number: since no other
/// ciphertext opens under a nonce with its tag, a header vouches for exactly these pieces,
/// without hashing them. A search opens one piece at a time (`openPieces`), so what it holds
/// in memory is the size of a piece whatever the vault's: format 4's one row, 140 KB at 10 000
/// accounts, cost every search two fresh buffers of its size, about 70 page faults.
struct SealedVaultIndex: Sendable, Equatable {
    /// One piece as stored.
    struct Piece: Sendable, Equatable {
        /// How many haystacks it holds.
        let haystacks: Int
        /// Nonce, ciphertext and tag.
        let sealed: Data
    }

    let pieces: [Piece]

    /// The size a piece is cut at (one haystack longer than it is a piece of its own).
    static let pieceSize = 16 * 1024

    static func additionalData(vaultID: Data, piece: Int, haystacks: Int) -> Data {
        CanonicalEncoding.utf8("tokens/index-piece/v1") + CanonicalEncoding.bytes(vaultID) + CanonicalEncoding.integers([piece, haystacks])
    }

    static func seal(_ plaintext: [UInt8], keys: VaultKeys) throws -> SealedVaultIndex {
        let cuts = plaintext.withUnsafeBytes { VaultIndexView.pieces(of: $0, size: pieceSize) }
        return SealedVaultIndex(
            pieces: try cuts.enumerated().map { position, cut in
                let sealed = try VaultCrypto.seal(
                    plaintext[cut.range], key: keys.entries,
                    authenticating: additionalData(vaultID: keys.vaultID, piece: position, haystacks: cut.haystacks))
                return Piece(haystacks: cut.haystacks, sealed: sealed.nonce + sealed.ciphertext)
            })
    }

    /// What the header's manifest holds.
    var binding: Data {
        var binding = Binding()
        for piece in pieces { piece.sealed.withUnsafeBytes { binding.add($0) } }
        return binding.finished
    }

    /// The binding of stored pieces, built one piece at a time: each one's nonce and tag, then
    /// their number.
    struct Binding {
        private var bytes: [UInt8] = []
        private(set) var count = 0

        init() {
            CanonicalEncoding.appendUTF8("tokens/index-binding/v2", to: &bytes)
        }

        /// Adds a stored piece (at least a nonce and a tag: 28 bytes).
        mutating func add(_ sealed: UnsafeRawBufferPointer) {
            // Copied byte by byte: `Data(sealed.prefix(12))` instantiates generic metadata at run
            // time, a tenth of a millisecond of every command.
            for (start, length) in [(0, 12), (sealed.count - 16, 16)] where sealed.count >= 28 {
                CanonicalEncoding.appendInteger(length, to: &bytes)
                for offset in start..<(start + length) { bytes.append(sealed[offset]) }
            }
            count += 1
        }

        var finished: Data {
            var bytes = bytes
            CanonicalEncoding.appendInteger(count, to: &bytes)
            return Data(SHA256.hash(data: bytes))
        }
    }

    /// Calls `each` with the plaintext of each stored piece in turn (wiped after) and the
    /// number of haystacks its row says it holds (nil in format 4's one row), then checks
    /// that the pieces are the ones `header` vouches for; `modified(.entries)` when they are not,
    /// when one does not open under `keys`, or when `each` throws; SQLite's error when the read
    /// fails. Each piece is opened where SQLite holds it, so a search's buffers are a piece's
    /// size and used again for the next.
    /// What `each` learns is the caller's to keep only once this returns.
    static func openPieces(
        in db: some VaultQuerying, keys: VaultKeys, header: VaultHeader, _ each: (UnsafeRawBufferPointer, Int?) throws -> Void
    ) throws {
        guard header.formatVersion >= 5 else {
            return try openFormat4(in: db, keys: keys, header: header) { try each($0, nil) }
        }
        var binding = Binding()
        try keepingReadErrors {
            _ = try db.rows("SELECT id, haystacks, sealed FROM index_piece ORDER BY id") { row in
                let position = binding.count
                let haystacks = try row.integer(1)
                guard try row.integer(0) == position, haystacks >= 0 else { throw VaultError.modified(.entries) }
                try row.withBlob(2) { sealed in
                    guard sealed.count >= 28, let base = sealed.baseAddress else { throw VaultError.modified(.entries) }
                    binding.add(sealed)
                    let combined = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: sealed.count, deallocator: .none)
                    guard let box = try? AES.GCM.SealedBox(combined: combined),
                        var plaintext = try? AES.GCM.open(
                            box, using: keys.entries,
                            authenticating: additionalData(vaultID: keys.vaultID, piece: position, haystacks: haystacks))
                    else { throw VaultError.modified(.entries) }
                    defer { plaintext.wipe() }
                    try plaintext.withUnsafeBytes { try each($0, haystacks) }
                }
            }
        }
        guard binding.count > 0, binding.finished == header.manifest else { throw VaultError.modified(.entries) }
    }

    /// `body`, with SQLite's own errors (a disk's, a busy file's) passed on as they are, for
    /// `VaultDatabase` to name, and any other (a value of the wrong type, a piece that does not
    /// open, the caller's) as `modified(.entries)`: a read that failed is not a vault changed.
    static func keepingReadErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error where error is DatabaseError || error is SQLiteReadError {
            throw error
        } catch {
            throw VaultError.modified(.entries)
        }
    }

    /// `body` with the whole plaintext of the stored pieces, if they are the ones `header`
    /// vouches for and they open under `keys`; `modified(.entries)` else (when there are none,
    /// or `body` throws). The plaintext is wiped after.
    static func open<T>(in db: some VaultQuerying, keys: VaultKeys, header: VaultHeader, _ body: (UnsafeRawBufferPointer) throws -> T)
        throws -> T
    {
        // The pieces' sizes first, so that the plaintext is one buffer, never moved (each move
        // would leave a copy unwiped).
        let sizes = try db.rows("SELECT length(sealed) FROM \(header.formatVersion >= 5 ? "index_piece" : "entry_index")") {
            try $0.integer(0)
        }
        var plaintext: [UInt8] = []
        plaintext.reserveCapacity(sizes.reduce(0) { $0 + max($1 - 28, 0) })
        defer { plaintext.wipe() }
        try openPieces(in: db, keys: keys, header: header) { piece, _ in
            guard plaintext.count + piece.count <= plaintext.capacity else { throw VaultError.modified(.entries) }
            plaintext.append(contentsOf: piece)
        }
        do { return try plaintext.withUnsafeBytes(body) } catch { throw VaultError.modified(.entries) }
    }

    /// Stores these pieces in place of the ones there.
    func write(_ db: Database) throws {
        let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO index_piece (id, haystacks, sealed) VALUES (?, ?, ?)")
        for (position, piece) in pieces.enumerated() { try insert.execute(arguments: [position, piece.haystacks, piece.sealed]) }
        try db.execute(sql: "DELETE FROM index_piece WHERE id >= ?", arguments: [pieces.count])
    }
}

extension VaultIndex {
    /// The index `header` vouches for in `db`, both parts; `modified(.entries)` if the sealed
    /// part does not open, or the chunks are not the ones it hashes.
    static func read(_ db: some VaultQuerying, keys: VaultKeys, header: VaultHeader) throws -> VaultIndex {
        guard let chunks = try storedChunks(db),
            let index = try SealedVaultIndex.open(in: db, keys: keys, header: header, { VaultIndex(sealedPart: $0, chunks: chunks) })
        else { throw VaultError.modified(.entries) }
        return index
    }

    /// The bodies of the `index_chunk` rows in order; nil unless they are numbered 0, 1, 2…
    static func storedChunks(_ db: some VaultQuerying) throws -> [Data]? {
        let stored = try db.rows("SELECT id, body FROM index_chunk ORDER BY id") { row in (try row.integer(0), try row.blob(1)) }
        guard stored.enumerated().allSatisfy({ $0.offset == $0.element.0 }) else { return nil }
        return stored.map(\.1)
    }

    /// The index of the rows in `db` now: each entry's haystack taken from `previous` where
    /// its row is the one `previous` indexed, else from the entry decrypted under `keys`.
    static func made(from db: some VaultQuerying, keys: VaultKeys, previous: VaultIndex?) throws -> VaultIndex {
        var known: [String: VaultIndex.Entry] = [:]
        if let previous, previous.folding == haystackVersion {
            known.reserveCapacity(previous.entries.count)
            for entry in previous.entries { known[entry.id] = entry }
        }
        let entries = try EntryTable.all(db).map { record in
            let digest = VaultRowDigest.entry(record)
            if let entry = known[record.id], entry.digest == digest { return entry }
            let account = try EntryCipher.open(record, keys: keys)
            return VaultIndex.Entry(id: record.id, digest: digest, haystack: AccountQuery.haystack(for: account))
        }
        let sync = try SealedSyncRow.fetchAll(db).map { SyncRow(table: $0.table, id: $0.id, digest: VaultRowDigest.sync($0)) }
        return VaultIndex(entries: entries, sync: sync)
    }

    /// Whether every row in `db` now, and no other, is as this index says.
    func covers(_ records: [EntryRecord], sync rows: [SealedSyncRow]) -> Bool {
        guard records.count == entries.count, rows.count == sync.count else { return false }
        var digests: [String: [UInt8]] = [:]
        digests.reserveCapacity(entries.count)
        for entry in entries { digests[entry.id] = entry.digest }
        guard digests.count == records.count, records.allSatisfy({ digests[$0.id] == VaultRowDigest.entry($0) }) else { return false }
        return Set(sync) == Set(rows.map { SyncRow(table: $0.table, id: $0.id, digest: VaultRowDigest.sync($0)) })
    }

    /// Stores this index in `db` in place of `previous` (what `db` holds, if known): the sealed
    /// part, and the chunks that differ from `previous`'s. The header's manifest for it.
    func store(in db: Database, keys: VaultKeys, replacing previous: VaultIndex?) throws -> Data {
        let encoded = encoded()
        let before = previous?.encoded().chunks ?? []
        let write = try db.cachedStatement(sql: "INSERT OR REPLACE INTO index_chunk (id, body) VALUES (?, ?)")
        for (position, body) in encoded.chunks.enumerated() where position >= before.count || before[position] != body {
            try write.execute(arguments: [position, Data(body)])
        }
        try db.execute(sql: "DELETE FROM index_chunk WHERE id >= ?", arguments: [encoded.chunks.count])
        var plaintext = encoded.sealedPart
        defer { plaintext.wipe() }
        let sealed = try SealedVaultIndex.seal(plaintext, keys: keys)
        try sealed.write(db)
        return sealed.binding
    }
}
