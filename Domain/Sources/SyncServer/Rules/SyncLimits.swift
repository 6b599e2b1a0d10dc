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
    /// Bytes of a device's name.
    public var deviceNameBytes = 64
    /// How long a tombstone is kept (seconds); clients away longer resync from scratch.
    public var tombstoneLifetime: Int64 = 90 * 24 * 3600
    /// Enrolment attempts per account, and per address, within `enrolmentWindow` seconds.
    public var enrolmentsPerAccount = 10
    public var enrolmentsPerAddress = 30
    public var enrolmentWindow: Int64 = 3600

    public init() {}
}
