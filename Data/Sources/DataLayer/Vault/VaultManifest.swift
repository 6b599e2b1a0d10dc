import Crypto
import Foundation
import GRDB

/// What the header's MAC covers of the rows. In formats 2 and 3, a digest of every stored entry
/// (id, order, dates, version, nonce and ciphertext) and, from format 3, every sync row; from
/// format 4, the binding of the sealed index (`VaultIndex`), which holds each row's digest.
/// Every write renews it in the same transaction, and every read of all entries and every
/// write checks every row against it, so a row added, removed, changed or replaced by an older
/// copy outside Tokens is found. A search (format 4) checks the rows it reads, and no others.
enum VaultManifest {
    /// The manifest of formats 2 and 3.
    static func digest(_ records: [EntryRecord], sync: [SealedSyncRow], format: Int) -> Data {
        // Every field in one buffer (an array: Data's small appends cost more), hashed once: the
        // same bytes as hashing them one by one.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + records.reduce(0) { $0 + 100 + $1.ciphertext.count } + sync.reduce(0) { $0 + 100 + $1.ciphertext.count })
        CanonicalEncoding.appendUTF8("tokens/manifest/v\(format >= 3 ? 3 : 2)", to: &bytes)
        CanonicalEncoding.appendInteger(records.count, to: &bytes)
        for record in records.sorted(by: { $0.id < $1.id }) { record.appendFields(to: &bytes) }
        if format >= 3 {
            CanonicalEncoding.appendInteger(sync.count, to: &bytes)
            for row in sync.sorted(by: { ($0.table.rawValue, $0.id) < ($1.table.rawValue, $1.id) }) { row.appendFields(to: &bytes) }
        }
        return Data(SHA256.hash(data: bytes))
    }

    /// The vault's integrity invariant, checked here and nowhere else: the entries `records`
    /// (read in the same transaction) and the sync rows of `db` are exactly the rows `header`'s
    /// manifest covers. Every read of all entries and every write call it before they trust a
    /// row. Returns the index it checked them against (format 4).
    @discardableResult
    static func check(_ records: [EntryRecord], in db: some VaultQuerying, against header: VaultHeader, keys: VaultKeys) throws
        -> VaultIndex?
    {
        let sync = try SealedSyncRow.fetchAll(db)
        guard header.formatVersion >= 4 else {
            guard digest(records, sync: sync, format: header.formatVersion) == header.manifest else { throw VaultError.modified(.entries) }
            return nil
        }
        let index = try VaultIndex.read(db, keys: keys, header: header)
        guard index.covers(records, sync: sync) else { throw VaultError.modified(.entries) }
        return index
    }

    /// `check`, for a read that keeps no index: the index is first checked in place against the
    /// rows in their order (`VaultIndex.StoredInOrder`), and read whole only when that cannot
    /// decide.
    static func verify(_ records: [EntryRecord], in db: some VaultQuerying, against header: VaultHeader, keys: VaultKeys) throws {
        let stored = try stored(in: db, against: header, keys: keys)
        let digests = stored == nil ? [] : try records.mappedOnAllCores { VaultRowDigest.entry($0) }
        try verify(records, digests: digests, stored: stored, in: db, against: header, keys: keys)
    }

    /// What `verify` compares the rows with, read before the rows are hashed (so that other
    /// threads can hash them meanwhile): nil when only `check` can decide.
    static func stored(in db: some VaultQuerying, against header: VaultHeader, keys: VaultKeys) throws -> VaultIndex.StoredInOrder? {
        guard header.formatVersion >= 4 else { return nil }
        return try VaultIndex.StoredInOrder.read(db, keys: keys, header: header, sync: try SealedSyncRow.fetchAll(db))
    }

    /// `verify`, with every record's `VaultRowDigest.entry` made and the index read (`stored`).
    static func verify(
        _ records: [EntryRecord], digests: [[UInt8]], stored: VaultIndex.StoredInOrder?, in db: some VaultQuerying,
        against header: VaultHeader, keys: VaultKeys
    ) throws {
        if let stored, stored.covers(records, digests: digests) { return }
        _ = try check(records, in: db, against: header, keys: keys)
    }

    /// The digest of the rows as they are in `db` now, as format `format` (2 or 3) counts them.
    static func current(_ db: some VaultQuerying, format: Int) throws -> Data {
        digest(try EntryTable.all(db), sync: format >= 3 ? try SealedSyncRow.fetchAll(db) : [], format: format)
    }
}
