/// The server's limits, each a rule of the protocol (the OpenAPI document states them too).
public struct SyncLimits: Equatable, Sendable {
    /// Changes in one push.
    public var changesPerPush = 100
    /// Entries in one pull page.
    public var pageSize = 500
    /// Bytes of one entry's ciphertext (clients pad payloads to a step well below this): just
    /// under 16 KiB, a multiple of 3, so that its base64 is exactly the document's 21 844
    /// characters (maxLength) and a schema-valid ciphertext is never refused.
    public var ciphertextBytes = 16_383
    /// AES-GCM's nonce.
    public var nonceBytes = 12
    /// Enrolled, unrevoked devices of one account.
    public var devicesPerAccount = 32
    /// The longest wait a pull may ask for (seconds; a long-poll): the protocol's bound.
    public static let longPollLimit = 30
    /// The longest this server lets a pull wait (0 to `longPollLimit`): it answers a longer ask
    /// sooner, with an empty page.
    public var longPollSeconds = longPollLimit
    /// Pulls one device may keep waiting at once (WaitingPulls): more are refused (429).
    public var waitingPullsPerDevice = 4
    /// Pulls waiting at once in all: more answer at once instead of waiting.
    public var waitingPulls = 1024
    /// How often a waiting pull re-reads its account's head (seconds), so a change pushed through
    /// another instance wakes it within this interval.
    public var headCheckInterval = 1.0
    /// How long a tombstone is kept (seconds); clients away longer resync from scratch.
    public var tombstoneLifetime: Int64 = 90 * 24 * 3600
    /// Enrolment attempts per account, and per address, within `enrolmentWindow` seconds.
    public var enrolmentsPerAccount = 10
    public var enrolmentsPerAddress = 30
    public var enrolmentWindow: Int64 = 3600
    /// Accounts opened (or tried) from one address, and in all, within `accountWindow` seconds.
    public var accountsPerAddress = 10
    public var accountsInAll = 1_000
    public var accountWindow: Int64 = 3600
    /// What one account may hold: live entries, and bytes of ciphertext (`StorageQuota`).
    public var quota = StorageQuota(entries: 10_000, bytes: 64 * 1024 * 1024)
    /// Who may open an account (the composition chooses: invitation off loopback).
    public var signup = SignupPolicy.open
    /// How much of each account's earlier versions is kept (undo and `tokens history`).
    public var history = HistoryRetention.standard
    /// Bytes of a device key as the client seals it, of a new key wrapped for one device, and of
    /// an account's key ring (the earlier keys, sealed): multiples of 3, so that the document's
    /// base64 maxLength (340, 680, 10 920) allows exactly these.
    public var deviceKeyBytes = 255
    public var wrappedKeyBytes = 510
    public var keyRingBytes = 8190

    public init() {}

    /// The size of a page read after `cursor` (a pull, or the history): `limit`, or the largest
    /// page when nil; a negative cursor or a size outside 1 to `pageSize` is refused.
    public func pageSize(_ limit: Int?, after cursor: Int64) throws(SyncServerError) -> Int {
        let size = limit ?? pageSize
        guard cursor >= 0 else { throw .invalid("the cursor must not be negative") }
        guard (1...pageSize).contains(size) else { throw .invalid("a page has 1 to \(pageSize) entries") }
        return size
    }
}
