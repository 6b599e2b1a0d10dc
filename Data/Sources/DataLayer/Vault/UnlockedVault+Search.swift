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
    /// The id and digest of the entry at each of `positions` (ascending), read from the chunks
    /// that hold them, each checked against its hash in `layout`; `modified(.entries)` else.
    static func records(
        at positions: [Int], layout: VaultIndexView.Layout, in db: some VaultQuerying
    ) throws -> [(id: String, digest: [UInt8])] {
        var found: [(id: String, digest: [UInt8])] = []
        var next = positions.startIndex
        for chunk in Set(positions.map { $0 / VaultIndex.chunkSize }).sorted() {
            let bodies = try db.rows("SELECT body FROM index_chunk WHERE id = \(chunk)") { try $0.blob(0) }
            guard chunk < layout.chunkHashes.count, bodies.count == 1 else { throw VaultError.modified(.entries) }
            let whole = bodies[0].withUnsafeBytes { body -> Bool in
                guard hash(body, position: chunk) == layout.chunkHashes[chunk] else { return false }
                var position = chunk * VaultIndex.chunkSize
                var entriesOnly = true
                let read = walk(body) { kind, id, digest in
                    if next < positions.endIndex, positions[next] == position {
                        entriesOnly = entriesOnly && kind == .entry
                        found.append((id.text, Array(digest)))
                        next += 1
                    }
                    position += 1
                }
                return read && entriesOnly
            }
            guard whole else { throw VaultError.modified(.entries) }
        }
        guard found.count == positions.count else { throw VaultError.modified(.entries) }
        return found
    }
}
