import Crypto
import Domain
import Foundation

extension SealedVaultIndex {
    /// Format 4's sealed part: one `entry_index` row (nonce, ciphertext, tag), whose nonce and
    /// tag the header's manifest binds. Read only to migrate such a vault (`VaultMigration`):
    /// `each` is called once, with the whole plaintext (wiped after), when the row is the one
    /// `header` vouches for and opens under `keys`; `modified(.entries)` else (SQLite's error when
    /// the read fails).
    static func openFormat4(
        in db: some VaultQuerying, keys: VaultKeys, header: VaultHeader, _ each: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let additionalData = CanonicalEncoding.utf8("tokens/index/v1") + CanonicalEncoding.bytes(keys.vaultID)
        // Opened and used where SQLite holds the row: an opened Data kept in an array would be
        // copied by its wipe, leaving the array's plaintext as it was.
        var count = 0
        try keepingReadErrors {
            _ = try db.rows("SELECT sealed FROM entry_index WHERE id = 1") { row in
                count += 1
                try row.withBlob(0) { sealed in
                    guard sealed.count >= 28, format4Binding(of: sealed) == header.manifest,
                        let box = try? AES.GCM.SealedBox(combined: Data(sealed)),
                        var plaintext = try? AES.GCM.open(box, using: keys.entries, authenticating: additionalData)
                    else { throw VaultError.modified(.entries) }
                    defer { plaintext.wipe() }
                    try plaintext.withUnsafeBytes(each)
                }
            }
        }
        guard count == 1 else { throw VaultError.modified(.entries) }
    }

    /// What a format-4 header's manifest holds: the binding of the row's nonce and tag.
    static func format4Binding(of sealed: UnsafeRawBufferPointer) -> Data {
        var bytes: [UInt8] = []
        CanonicalEncoding.appendUTF8("tokens/index-binding/v1", to: &bytes)
        for (start, count) in [(0, 12), (sealed.count - 16, 16)] {
            CanonicalEncoding.appendInteger(count, to: &bytes)
            bytes += sealed[start..<(start + count)]
        }
        return Data(SHA256.hash(data: bytes))
    }
}
