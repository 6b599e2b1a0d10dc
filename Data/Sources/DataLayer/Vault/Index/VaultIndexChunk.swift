import Crypto
import Foundation

/// One chunk of the index's records (`VaultIndex`): each a kind, an id and a row digest.
enum VaultIndexChunk {
    /// What a record is the digest of.
    enum Kind: UInt8 {
        case entry = 0
        case syncAccount = 1
        case syncEntry = 2

        init(_ table: SealedSyncRow.Table) {
            self = table == .account ? .syncAccount : .syncEntry
        }

        /// The sync table of a sync row's record; nil for an entry's.
        var table: SealedSyncRow.Table? {
            switch self {
            case .entry: nil
            case .syncAccount: .account
            case .syncEntry: .entry
            }
        }
    }

    /// The SHA-256 of the chunk at `position`: the sealed part keeps it, so a chunk cannot be
    /// changed, moved or replaced by an older one.
    static func hash(_ body: UnsafeRawBufferPointer, position: Int) -> [UInt8] {
        var hash = SHA256()
        hash.update(data: CanonicalEncoding.utf8("tokens/index-chunk/v1") + CanonicalEncoding.integers([position]))
        hash.update(bufferPointer: body)
        return Array(hash.finalize())
    }

    /// Calls `record` with each record of `body`; false unless every record is whole.
    @discardableResult
    static func walk(_ body: UnsafeRawBufferPointer, _ record: (Kind, VaultIndexBytes.ID, UnsafeRawBufferPointer) -> Void) -> Bool {
        var reader = VaultIndexBytes.Reader(bytes: body)
        while !reader.isAtEnd {
            guard let kind = reader.byte().flatMap(Kind.init(rawValue:)), let id = reader.id(),
                let digest = reader.take(VaultRowDigest.length)
            else { return false }
            record(kind, id, digest)
        }
        return true
    }
}

extension VaultIndexChunk {
    /// A record as a search or a single row's read takes it from its chunk.
    struct Record {
        let kind: Kind
        let id: String
        let digest: [UInt8]
        /// Where its digest lies in its chunk's body.
        let digestOffset: Int
    }

    /// The records at `positions` (ascending), read from the chunks that hold them, each chunk
    /// checked against its hash in `layout`; `modified(.entries)` else.
    static func records(at positions: [Int], layout: VaultIndexView.Layout, in db: some VaultQuerying) throws -> [Record] {
        var found: [Record] = []
        for chunk in Set(positions.map { $0 / VaultIndex.chunkSize }).sorted() {
            let first = chunk * VaultIndex.chunkSize
            let wanted = positions.filter { $0 / VaultIndex.chunkSize == chunk }.map { $0 - first }
            found += records(at: wanted, in: try body(chunk, layout: layout, in: db))
        }
        guard found.count == positions.count else { throw VaultError.modified(.entries) }
        return found
    }

    /// The records at `offsets` (ascending) of a chunk's `body`, those it has.
    static func records(at offsets: [Int], in body: Data) -> [Record] {
        var found: [Record] = []
        body.withUnsafeBytes { body in
            var offset = 0
            var next = offsets.startIndex
            walk(body) { kind, id, digest in
                if next < offsets.endIndex, offsets[next] == offset {
                    let at = digest.baseAddress.map { $0 - body.baseAddress! } ?? 0
                    found.append(Record(kind: kind, id: id.text, digest: Array(digest), digestOffset: at))
                    next += 1
                }
                offset += 1
            }
        }
        return found
    }

    /// The body of chunk `chunk`, checked against its hash in `layout`; `modified(.entries)`
    /// when it is not there, not whole or not the one hashed.
    static func body(_ chunk: Int, layout: VaultIndexView.Layout, in db: some VaultQuerying) throws -> Data {
        let bodies = try db.rows("SELECT body FROM index_chunk WHERE id = \(chunk)") { try $0.blob(0) }
        guard bodies.count == 1, bodies[0].withUnsafeBytes({ isChunk($0, at: chunk, of: layout) && walk($0) { _, _, _ in } }) else {
            throw VaultError.modified(.entries)
        }
        return bodies[0]
    }

    /// Whether `body` is the chunk `layout` hashes at `position`.
    static func isChunk(_ body: UnsafeRawBufferPointer, at position: Int, of layout: VaultIndexView.Layout) -> Bool {
        position < layout.chunkHashes.count && hash(body, position: position) == layout.chunkHashes[position]
    }
}

/// The index's integers, ids and byte strings.
enum VaultIndexBytes {
    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// `length` in base-128 digits, least significant first, each but the last with its top bit
    /// set (a haystack's length: one byte for nearly all).
    static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        var rest = length
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// 0 and the 16 bytes for a UUID's canonical (upper-case) text, else 1 and the text.
    static func appendID(_ id: String, to bytes: inout [UInt8]) {
        if let uuid = UUID(text: id), uuid.text == id {
            bytes.append(0)
            bytes += uuid.bytes
        } else {
            bytes.append(1)
            var text = id
            text.withUTF8 { utf8 in
                append(UInt32(utf8.count), to: &bytes)
                bytes.append(contentsOf: utf8)
            }
        }
    }

    /// An id as stored: made into text only when asked.
    struct ID {
        let isUUID: Bool
        let bytes: UnsafeRawBufferPointer

        var text: String {
            isUUID ? UUID(bytes: Array(bytes))!.text : String(decoding: bytes.bindMemory(to: UInt8.self), as: UTF8.self)
        }

        /// The UUID it is (a text id only if it is one's text), made without copying the bytes.
        var uuid: UUID? {
            isUUID ? UUID(uuid: bytes.loadUnaligned(as: uuid_t.self)) : UUID(uuidString: text)
        }
    }

    /// Reads front to back; every read is bounds-checked and nil past the end.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        // Inlined, as `byte` and `length` are: a search reads a length for each of the vault's
        // entries (`VaultIndexView.walk`).
        @inline(__always)
        mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        }

        @inline(__always)
        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func count() -> Int? {
            take(4).map { $0.reduce(0) { $0 << 8 | Int($1) } }
        }

        /// What `appendLength` wrote; nil past the end or beyond four digits.
        @inline(__always)
        mutating func length() -> Int? {
            var value = 0
            for digit in 0..<4 {
                guard let byte = byte() else { return nil }
                value |= Int(byte & 0x7F) << (7 * digit)
                if byte < 0x80 { return value }
            }
            return nil
        }

        mutating func id() -> ID? {
            switch byte() {
            case 0: take(16).map { ID(isUUID: true, bytes: $0) }
            case 1: count().flatMap { take($0) }.map { ID(isUUID: false, bytes: $0) }
            default: nil
            }
        }
    }
}
