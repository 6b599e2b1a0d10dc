import Crypto
import Domain
import Foundation

/// The keys sync derives from a vault's sync key (HKDF-SHA256, salted with the sync account's
/// id): one encrypts entries for the server, the other is the auth key the server checks
/// (which it keeps only as a digest). Neither opens the other.
public struct SyncKeys: Sendable {
    /// Encrypts entries (AES-256-GCM).
    let entries: SymmetricKey
    /// Sent at enrolment; the server stores its SHA-256.
    public let authKey: [UInt8]
    public let account: UUID
    /// The version of the sync key (1, and one more at each rotation): bound into every entry.
    public let version: Int

    public init(key: SyncKey, account: UUID, version: Int = 1) {
        let master = SymmetricKey(data: key.bytes)
        let salt = Data(account.bytes)
        self.account = account
        self.version = version
        entries = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master, salt: salt, info: Data("tokens/sync/entries/v1".utf8), outputByteCount: 32)
        authKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: master, salt: salt, info: Data("tokens/sync/auth/v1".utf8), outputByteCount: 32)
            .withUnsafeBytes { Array($0) }
    }
}
