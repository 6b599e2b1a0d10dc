import Crypto
import Foundation

/// The SHA-256 of one stored row, every field the manifest covered, cut to its first 128 bits:
/// what format 4's index keeps for each row, so that one row can be checked on its own. (A row
/// that passes for another must match its digest: a second preimage, 2^128 work. Tokens writes
/// every row, random nonce and all, so a collision between two rows of an attacker's making
/// gains nothing.)
enum VaultRowDigest {
    static let length = 16

    static func entry(_ record: EntryRecord) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + record.id.utf8.count + record.nonce.count + record.ciphertext.count)
        CanonicalEncoding.appendUTF8("tokens/entry-row/v1", to: &bytes)
        record.appendFields(to: &bytes)
        return prefix(of: bytes)
    }

    static func sync(_ row: SealedSyncRow) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + row.id.utf8.count + row.nonce.count + row.ciphertext.count)
        CanonicalEncoding.appendUTF8("tokens/sync-row/v1", to: &bytes)
        row.appendFields(to: &bytes)
        return prefix(of: bytes)
    }

    /// The first `length` bytes of the SHA-256 of `bytes`: hashed and cut where they lie (the
    /// generic `hash(data:)` and `prefix` cost more than the hashing, at every row of a read).
    private static func prefix(of bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return hasher.finalize().withUnsafeBytes { Array($0.prefix(length)) }
    }
}
