import Crypto
import Foundation
import GRDB

/// A digest of every stored entry (id, order, dates, version, nonce and ciphertext), kept in
/// the header under its MAC. Every write renews it in the same transaction; unlock, every read
/// and every write check it, so an entry added, removed, changed or replaced by an older copy
/// outside Tokens is found.
enum VaultManifest {
    static func digest(_ records: [EntryRecord]) -> Data {
        var hash = SHA256()
        hash.update(data: Data("tokens/manifest/v2".utf8) + CanonicalEncoding.integers([records.count]))
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
        return Data(hash.finalize())
    }

    /// The digest of the entries as they are in `db` now.
    static func current(_ db: Database) throws -> Data {
        digest(try EntryRecord.fetchAll(db))
    }
}
