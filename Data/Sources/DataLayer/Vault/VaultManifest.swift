import Crypto
import Foundation
import GRDB

/// A digest of every stored entry (id, order, dates, version, nonce and ciphertext) and, from
/// format 3, every sync row, kept in the header under its MAC. Every write renews it in the same
/// transaction; unlock, every read and every write check it, so a row added, removed, changed or
/// replaced by an older copy outside Tokens is found.
enum VaultManifest {
    static func digest(_ records: [EntryRecord], sync: [SealedSyncRow], format: Int = VaultHeader.currentFormat) -> Data {
        // Every field in one buffer (an array: Data's small appends cost more), hashed once: the
        // same bytes as hashing them one by one.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + records.reduce(0) { $0 + 100 + $1.ciphertext.count } + sync.reduce(0) { $0 + 100 + $1.ciphertext.count })
        CanonicalEncoding.appendUTF8("tokens/manifest/v\(format >= 3 ? 3 : 2)", to: &bytes)
        CanonicalEncoding.appendInteger(records.count, to: &bytes)
        for record in records.sorted(by: { $0.id < $1.id }) {
            CanonicalEncoding.appendString(record.id, to: &bytes)
            for value in [
                record.sortOrder, Int(truncatingIfNeeded: record.createdAt.bitPattern),
                Int(truncatingIfNeeded: record.updatedAt.bitPattern), record.version,
            ] { CanonicalEncoding.appendInteger(value, to: &bytes) }
            CanonicalEncoding.appendBytes(record.nonce, to: &bytes)
            CanonicalEncoding.appendBytes(record.ciphertext, to: &bytes)
        }
        if format >= 3 {
            CanonicalEncoding.appendInteger(sync.count, to: &bytes)
            for row in sync.sorted(by: { ($0.table.rawValue, $0.id) < ($1.table.rawValue, $1.id) }) {
                CanonicalEncoding.appendString(row.table.rawValue, to: &bytes)
                CanonicalEncoding.appendString(row.id, to: &bytes)
                CanonicalEncoding.appendInteger(row.version, to: &bytes)
                CanonicalEncoding.appendBytes(row.nonce, to: &bytes)
                CanonicalEncoding.appendBytes(row.ciphertext, to: &bytes)
            }
        }
        return Data(SHA256.hash(data: bytes))
    }

    /// The vault's integrity invariant, checked here and nowhere else: the entries `records`
    /// (read in the same transaction) and the sync rows of `db` are exactly the rows `header`'s
    /// manifest covers. Unlock, every read and every write call it before they trust a row.
    static func check(_ records: [EntryRecord], in db: some VaultQuerying, against header: VaultHeader) throws {
        guard digest(records, sync: try SealedSyncRow.fetchAll(db)) == header.manifest else { throw VaultError.modified(.entries) }
    }

    /// The digest of the rows as they are in `db` now, as format `format` counts them.
    static func current(_ db: some VaultQuerying, format: Int = VaultHeader.currentFormat) throws -> Data {
        digest(try EntryTable.all(db), sync: format >= 3 ? try SealedSyncRow.fetchAll(db) : [], format: format)
    }
}
