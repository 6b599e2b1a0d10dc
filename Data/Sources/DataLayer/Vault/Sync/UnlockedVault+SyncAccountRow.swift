import Foundation
import GRDB

/// The sync account's row read and replaced through the index alone: what a quiet sync round
/// does (`VaultSyncStore.quietStart`, `commitQuiet`), so that a sync with nothing to do reads and
/// writes one row and one chunk of the index whatever the vault's size. Every other row is left
/// to the next read of every entry or write that checks them all, as a search leaves them.
extension UnlockedVault {
    /// What the index says of the account's row.
    enum IndexedAccountRow {
        /// The vault syncs with nothing.
        case absent
        case row(SealedSyncRow)
    }

    /// The account's row, checked against its digest in the index; nil when the vault has no
    /// read path (the caller reads it with every row checked).
    func indexedSyncAccountRow() throws -> IndexedAccountRow? {
        try readingHeader { connection, keys, header -> IndexedAccountRow in
            guard let layout = try Self.indexLayout(connection, keys: keys, header: header) else { throw VaultError.modified(.entries) }
            return try Self.accountRow(layout: layout, in: connection).map { .row($0.row) } ?? .absent
        }
    }

    /// Replaces the account's row with what `change` makes of it, in one transaction that
    /// checks the header, the schema, the row and its chunk of the index, and seals the index
    /// and the header again with the row's new digest. False (and nothing written) when the
    /// vault has no such row: the caller writes the whole way.
    func replaceSyncAccountRow(_ change: (SealedSyncRow, VaultKeys) throws -> SealedSyncRow) throws -> Bool {
        do {
            try writeChecked { db, keys, header -> (result: Void, manifest: Data) in
                var sealedPart: [UInt8] = []
                defer { sealedPart.wipe() }
                let layout = try SealedVaultIndex.open(in: db, keys: keys, header: header) { plaintext -> VaultIndexView.Layout? in
                    sealedPart = Array(plaintext)
                    return VaultIndexView.walk(plaintext) { _, _, _ in }
                }
                guard let layout else { throw VaultError.modified(.entries) }
                guard let (row, record, stored) = try Self.accountRow(layout: layout, in: db) else { throw NotIndexed() }
                let replacement = try change(row, keys)
                guard replacement.table == .account, replacement.id == row.id else { throw NotIndexed() }
                try replacement.write(db)

                let chunk = layout.entries / VaultIndex.chunkSize
                var body = Array(stored)
                body.replaceSubrange(
                    record.digestOffset..<(record.digestOffset + VaultRowDigest.length), with: VaultRowDigest.sync(replacement))
                try VaultRows.execute(db, "UPDATE index_chunk SET body = ? WHERE id = ?", [Data(body), chunk])
                let hashAt = sealedPart.count - (layout.chunkHashes.count - chunk) * 32
                sealedPart.replaceSubrange(hashAt..<(hashAt + 32), with: body.withUnsafeBytes { VaultIndexChunk.hash($0, position: chunk) })
                let sealed = try SealedVaultIndex.seal(sealedPart, keys: keys)
                try sealed.write(db)
                return ((), sealed.binding)
            }
            return true
        } catch is NotIndexed {
            return false
        }
    }

    /// The account's row, its record in the index (the first after the entries) and the chunk
    /// that holds it, checked against each other; nil when the index has no account row.
    private static func accountRow(
        layout: VaultIndexView.Layout, in db: some VaultQuerying
    ) throws -> (row: SealedSyncRow, record: VaultIndexChunk.Record, chunk: Data)? {
        guard layout.entries < layout.records else { return nil }
        let chunk = layout.entries / VaultIndex.chunkSize
        let body = try VaultIndexChunk.body(chunk, layout: layout, in: db)
        guard let record = VaultIndexChunk.records(at: [layout.entries - chunk * VaultIndex.chunkSize], in: body).first else {
            throw VaultError.modified(.entries)
        }
        guard record.kind == .syncAccount else { return nil }
        guard let row = try SealedSyncRow.fetchAll(db, .account).first, row.id == record.id, VaultRowDigest.sync(row) == record.digest
        else { throw VaultError.modified(.entries) }
        return (row, record, body)
    }

    /// The account's row cannot be replaced alone.
    private struct NotIndexed: Error {}
}
