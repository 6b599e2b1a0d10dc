import Crypto
import Foundation
import GRDB

/// A digest of every stored entry (id, order, dates, version, nonce and ciphertext) and, from
/// format 3, every sync row, kept in the header under its MAC. Every write renews it in the same
/// transaction; unlock, every read and every write check it, so a row added, removed, changed or
/// replaced by an older copy outside Tokens is found.
enum VaultManifest {
    static func digest(_ records: [EntryRecord], sync: [SealedSyncRow], format: Int = VaultHeader.currentFormat) -> Data {
        var hash = SHA256()
        hash.update(data: CanonicalEncoding.utf8("tokens/manifest/v\(format >= 3 ? 3 : 2)") + CanonicalEncoding.integers([records.count]))
        for record in records.sorted(by: { $0.id < $1.id }) {
            hash.update(data: CanonicalEncoding.string(record.id))
            hash.update(
                data: CanonicalEncoding.integers([
                    record.sortOrder, Int(truncatingIfNeeded: record.createdAt.bitPattern),
                    Int(truncatingIfNeeded: record.updatedAt.bitPattern), record.version,
                ]))
            hash.update(data: CanonicalEncoding.bytes(record.nonce))
            hash.update(data: CanonicalEncoding.bytes(record.ciphertext))
        }
        guard format >= 3 else { return Data(hash.finalize()) }
        hash.update(data: CanonicalEncoding.integers([sync.count]))
        for row in sync.sorted(by: { ($0.table.rawValue, $0.id) < ($1.table.rawValue, $1.id) }) {
            hash.update(data: CanonicalEncoding.string(row.table.rawValue) + CanonicalEncoding.string(row.id))
            hash.update(data: CanonicalEncoding.integers([row.version]))
            hash.update(data: CanonicalEncoding.bytes(row.nonce))
            hash.update(data: CanonicalEncoding.bytes(row.ciphertext))
        }
        return Data(hash.finalize())
    }

    /// The digest of the rows as they are in `db` now, as format `format` counts them.
    static func current(_ db: Database, format: Int = VaultHeader.currentFormat) throws -> Data {
        digest(try EntryRecord.fetchAll(db), sync: format >= 3 ? try SealedSyncRow.fetchAll(db) : [], format: format)
    }
}
