/// Why a sync did not complete, in the user's terms (Data maps every transport failure and
/// answer to one of these; nothing here knows HTTP).
public enum SyncError: Error, Equatable, Sendable {
    /// No connection to the server (it is down, or this machine is offline): changes wait.
    case offline
    /// The server did not answer in time.
    case timedOut
    /// The server's certificate was not trusted.
    case insecureConnection
    /// The server does not know this device's token.
    case unauthorized
    /// This device was revoked: it must join again.
    case revoked
    /// The server forgot deletions older than this device's cursor: a full resync follows.
    case cursorExpired
    /// Too many attempts; try again after this many seconds.
    case rateLimited(retryAfterSeconds: Int)
    /// The server speaks another version of the protocol.
    case incompatible
    /// The server failed (a 5xx answer).
    case server
    /// The server is up but cannot serve now (a 503: its database is down, full or failing
    /// over); nothing was stored, and the same sync later succeeds.
    case unavailable
    /// An answer larger than any the protocol sends: refused as it arrived, never held whole.
    case answerTooLarge
    /// Pages that lead nowhere (one that says more follows without moving past the cursor, or
    /// more pages than a sync may take): the pull stopped, nothing half-taken.
    case endlessPages
    /// An entry could not be decrypted or read (a wrong key, or tampering): it is left alone.
    case corruptEntry(id: String)
    /// Pushes kept meeting newer changes: the next sync tries again.
    case stillConflicting
    /// The sync account is already open on the server (another machine made it: join it).
    case accountExists
    /// The server opens sync accounts only with an invitation from its operator.
    case invitationRequired
    /// The invitation is unknown to the server, expired, or used for another account.
    case invitationRefused
    /// The server opens no new sync accounts.
    case signupClosed
    /// The account has no such device.
    case unknownDevice
    /// This machine belongs to no sync account (`tokens sync init` or `join` first).
    case notSetUp
    /// This machine already belongs to a sync account (leave it first).
    case alreadySetUp
    /// The account's sync key was replaced on another machine: fetch it, then sync again.
    case keyChanged
    /// The account's sync key was replaced and not shared with this machine (it had no device
    /// key, or what it was given does not open): join again with the new code.
    case keyNotShared
    /// Another machine replaced the sync key at the same time: try again.
    case keyConflict
    /// The server holds an older sync key than this machine (restored from a backup taken before
    /// a replacement) and this machine could not give it the newer one: nothing was sent.
    case serverKeyBehind
    /// The server holds as much as it allows for this sync account: nothing was sent.
    case quotaExceeded
    /// The server keeps no history (a version from before it did).
    case historyUnavailable
}
