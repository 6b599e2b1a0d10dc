import Domain
import Foundation

extension UnlockedVault {
    /// The accounts `query` matches, in the user's order. On the read path, one transaction
    /// reads the header and the index's sealed part, a piece at a time, then only the chunks and entries of the
    /// matches, each entry checked against its digest before it is decrypted: a change to a row
    /// read is found here, a change to any other at the next read of every entry or write.
    /// Elsewhere (or with an index folded by another build), every entry is checked and
    /// decrypted.
    func search(_ query: AccountQuery) throws -> [Account] {
        try throughIndex { connection, keys, header in
            var matcher = VaultIndexView.Matcher(query)
            try SealedVaultIndex.openPieces(in: connection, keys: keys, header: header) { matcher.read($0, haystacks: $1) }
            guard let (positions, layout) = matcher.finished else { return nil }
            return try VaultIndexChunk.records(at: positions, layout: layout, in: connection)
        } orEvery: { record, keys in
            let account = try EntryCipher.open(record, keys: keys)
            return query.matches(account) ? account : nil
        }
    }

    /// The accounts whose id starts with `prefix`, in the user's order. On the read path, one
    /// transaction reads the header, the index's sealed part and the chunks of the entries'
    /// records (each checked against its hash), then only the entries whose ids match, each
    /// checked against its digest before it is decrypted. Elsewhere, every entry is checked and
    /// decrypted.
    func accounts(idPrefix prefix: AccountIDPrefix) throws -> [Account] {
        try throughIndex { connection, keys, header in
            guard let layout = try Self.indexLayout(connection, keys: keys, header: header) else { return nil }
            var matches: [VaultIndexChunk.Record] = []
            for chunk in 0..<((layout.entries + VaultIndex.chunkSize - 1) / VaultIndex.chunkSize) {
                let body = try VaultIndexChunk.body(chunk, layout: layout, in: connection)
                var offsets: [Int] = []
                var offset = 0
                _ = body.withUnsafeBytes { body in
                    VaultIndexChunk.walk(body) { _, id, _ in
                        if chunk * VaultIndex.chunkSize + offset < layout.entries, id.uuid.map(prefix.matches) ?? false {
                            offsets.append(offset)
                        }
                        offset += 1
                    }
                }
                matches += VaultIndexChunk.records(at: offsets, in: body)
            }
            return matches
        } orEvery: { record, keys in
            guard let id = UUID(uuidString: record.id), prefix.matches(id) else { return nil }
            return try EntryCipher.open(record, keys: keys)
        }
    }

    /// On the read path, the entries of the index's records that `find` returns (nil: the index
    /// cannot answer), each checked to be an entry's and each row against its digest before it
    /// is decrypted (`modified(.entries)` else); elsewhere, or when `find` returns nil, every
    /// entry is checked and `each` keeps the accounts it returns.
    private func throughIndex(
        _ find: @Sendable (SQLiteReadConnection, VaultKeys, VaultHeader) throws -> [VaultIndexChunk.Record]?,
        orEvery each: (EntryRecord, VaultKeys) throws -> Account?
    ) throws -> [Account] {
        let found = try readingHeader { connection, keys, header -> [Account]? in
            guard let matches = try find(connection, keys, header) else { return nil }
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
        return try readEntries { keys, records in try records.compactMap { try each($0, keys) } }
    }

    /// The layout of the index `header` vouches for, read a piece at a time, the haystacks
    /// passed (nil when it is no whole sealed part); `modified(.entries)` when its pieces are
    /// not the ones vouched for.
    static func indexLayout(_ db: some VaultQuerying, keys: VaultKeys, header: VaultHeader) throws -> VaultIndexView.Layout? {
        var walker = VaultIndexView.Walker()
        try SealedVaultIndex.openPieces(in: db, keys: keys, header: header) { bytes, haystacks in
            if let haystacks { walker.pass(bytes, haystacks: haystacks) } else { walker.read(bytes) { _, _, _ in } }
        }
        return walker.finished
    }
}
