/// Why the server refused a request, in the server's own terms. The HTTP interface maps each
/// case to a status (401, 403, 404, 409, 410, 413, 422, 429, 503) and a problem document.
public enum SyncServerError: Error, Equatable, Sendable {
    /// No such token, or an auth key that does not match (never says which).
    case unauthorized
    /// The token is that of a revoked device. Said only to whoever holds that token, so the
    /// client can tell its user to join again instead of "not authorized".
    case deviceRevoked
    /// No such device in this account (another account's ids are "not found" too).
    case deviceNotFound
    /// An account with this id exists already.
    case accountExists
    /// The account has as many devices as it may.
    case tooManyDevices(limit: Int)
    /// Too many enrolment attempts lately, for the account or the address.
    case rateLimited(retryAfterSeconds: Int)
    /// Too many accounts opened lately, from the address or in all.
    case tooManyAccounts(retryAfterSeconds: Int)
    /// The device has as many pulls waiting as it may (WaitingPulls); try again after a while.
    case tooManyWaiting(limit: Int, retryAfterSeconds: Int)
    /// The cursor is older than the tombstone horizon: changes were forgotten; resync from 0.
    case cursorExpired(horizon: Int64)
    /// A push with more changes than allowed.
    case tooManyChanges(limit: Int)
    /// An entry's ciphertext is larger than allowed.
    case payloadTooLarge(limit: Int)
    /// The push would take the account past its storage quota; nothing was stored.
    case quotaExceeded(StorageQuota)
    /// The server opens accounts only for an invitation, and the request had none.
    case invitationRequired
    /// The invitation presented is unknown, expired or already used for another account.
    case invitationRefused
    /// The server opens no new accounts.
    case signupClosed
    /// A request that breaks the protocol's rules (the text says which).
    case invalid(String)
    /// The account's keys moved on under the request (a rotation at a version already passed, a
    /// device key already given): the text says which. Fetch the keys and try again.
    case keyConflict(String)
    /// The store cannot serve now; nothing was stored. The client tries again later.
    case unavailable(StoreOutage)
}

/// Why the store cannot serve (`SyncServerError.unavailable`).
public enum StoreOutage: Equatable, Sendable {
    /// The database cannot be reached: down, restarting, or no answer within the time allowed.
    case unreachable
    /// The database has no room left.
    case full
    /// The database accepts no writes.
    case readOnly

    /// When to try again, in seconds: soon after a restart, later for what an operator must fix.
    public var retryAfterSeconds: Int {
        self == .unreachable ? 5 : 60
    }
}
