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
