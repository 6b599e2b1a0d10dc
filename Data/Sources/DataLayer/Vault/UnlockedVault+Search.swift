import Domain
import Foundation

extension UnlockedVault {
    /// The accounts `query` matches, in the user's order. On the read path, one transaction
    /// reads the header and the index's sealed part, then only the chunks and entries of the
    /// matches, each entry checked against its digest before it is decrypted: a change to a row
    /// read is found here, a change to any other at the next read of every entry or write.
    /// Elsewhere (or with an index folded by another build), every entry is checked and
    /// decrypted.
    func search(_ query: AccountQuery) throws -> [Account] {
        let found = try readingHeader { connection, keys, header -> [Account]? in
            let opened = try SealedVaultIndex.open(in: connection, keys: keys, header: header) { VaultIndexView.matching(query, in: $0) }
            guard let (positions, layout) = opened else { return nil }
            let matches = try VaultIndexChunk.records(at: positions, layout: layout, in: connection)
            guard matches.allSatisfy({ $0.kind == .entry }) else { throw VaultError.modified(.entries) }
            let records = try EntryTable.rows(connection, ids: matches.map(\.id))
            return try matches.map { match in
                guard let record = records[match.id], VaultRowDigest.entry(record) == match.digest else {
                    throw VaultError.modified(.entries)
                }
                return try EntryCipher.open(record, keys: keys)
            }
        }
        if case let found?? = found { return found }
        return try readEntries { keys, records in
            try records.compactMap { record in
                let account = try EntryCipher.open(record, keys: keys)
                return query.matches(account) ? account : nil
            }
        }
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
        var next = positions.startIndex
        for chunk in Set(positions.map { $0 / VaultIndex.chunkSize }).sorted() {
            let body = try self.body(chunk, layout: layout, in: db)
            body.withUnsafeBytes { body in
                var position = chunk * VaultIndex.chunkSize
                walk(body) { kind, id, digest in
                    if next < positions.endIndex, positions[next] == position {
                        let offset = digest.baseAddress.map { $0 - body.baseAddress! } ?? 0
                        found.append(Record(kind: kind, id: id.text, digest: Array(digest), digestOffset: offset))
                        next += 1
                    }
                    position += 1
                }
            }
        }
        guard found.count == positions.count else { throw VaultError.modified(.entries) }
        return found
    }

    /// The body of chunk `chunk`, checked against its hash in `layout`; `modified(.entries)`
    /// when it is not there, not whole or not the one hashed.
    static func body(_ chunk: Int, layout: VaultIndexView.Layout, in db: some VaultQuerying) throws -> Data {
        let bodies = try db.rows("SELECT body FROM index_chunk WHERE id = \(chunk)") { try $0.blob(0) }
        guard chunk < layout.chunkHashes.count, bodies.count == 1,
            bodies[0].withUnsafeBytes({ hash($0, position: chunk) == layout.chunkHashes[chunk] && walk($0) { _, _, _ in } })
        else { throw VaultError.modified(.entries) }
        return bodies[0]
    }
}
