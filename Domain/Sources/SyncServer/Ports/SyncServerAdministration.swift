import Foundation

/// What an operator reads and changes beside the requests (`tokens-server admin`), on the same
/// store the server serves from. Devices are listed and revoked through `SyncServerStore`.
public protocol SyncServerAdministration: Sendable {
    /// Every account, oldest first.
    func accountSummaries() async throws -> [AccountSummary]
    /// Every account's id, oldest first: what an operator's reference is resolved among, when
    /// nothing else of the accounts is needed.
    func accountIDs() async throws -> [SyncAccountID]
    /// Removes the account and everything stored for it (devices, entries, history, keys);
    /// false when there is no such account.
    func deleteAccount(_ id: SyncAccountID) async throws -> Bool
    /// Holds the account to `quota` from its next push on (what it stores already stays);
    /// false when there is no such account.
    func setQuota(_ quota: AccountQuota, of account: SyncAccountID) async throws -> Bool
    /// Keeps a new invitation, by its digest, valid until `expiresAt`.
    func addInvitation(_ digest: SecretDigest, createdAt: Date, expiresAt: Date) async throws
}
