import Foundation

/// Where the server keeps accounts, devices and entries: Data's PostgreSQL store, or its
/// in-memory store for DEV and tests. Every call names the account, so the data can be
/// distributed by account. One contract suite holds both implementations to the same behaviour.
public protocol SyncServerStore: StoreReadiness {
    /// Stores a new account; `SyncServerError.accountExists` if the id is taken.
    func createAccount(_ account: SyncAccountRecord) async throws
    func account(_ id: SyncAccountID) async throws -> SyncAccountRecord?
    /// Takes the invitation of `digest` for `account` at `time`: true when it exists, has not
    /// expired, and is unused or already taken by this account; false (nothing changed) else.
    func takeInvitation(_ digest: SecretDigest, for account: SyncAccountID, at time: Date) async throws -> Bool

    /// Records an enrolment attempt at `time` and counts the attempts since `since` (this one
    /// included) for the account and for the address.
    func recordEnrolmentAttempt(
        account: SyncAccountID, address: String, at time: Date, since: Date
    ) async throws -> EnrolmentAttempts

    /// Records an account opened (or tried) from `address` at `time` and counts those since
    /// `since` (this one included) from the address and in all.
    func recordAccountCreation(address: String, at time: Date, since: Date) async throws -> AccountCreations

    /// Adds the device unless its account already has `limit` unrevoked devices (then false).
    func addDevice(_ device: SyncDevice, limit: Int) async throws -> Bool
    /// The account's devices, revoked ones included, oldest first.
    func devices(of account: SyncAccountID) async throws -> [SyncDevice]
    /// The device whose token has this digest, revoked or not; nil if none.
    func device(withToken digest: SecretDigest) async throws -> SyncDevice?
    /// Keeps when each device was last seen (`SyncDevice.lastSeenAt`), never moving one back;
    /// devices no longer stored are skipped.
    func recordActivity(_ sightings: [DeviceSeen]) async throws
    /// Marks the account's device revoked; false if the account has no such device.
    func revokeDevice(_ id: DeviceID, of account: SyncAccountID, at time: Date) async throws -> Bool
    /// Gives the account's device its device key; false if it has another one already (the same
    /// one again is true) or the account has no such device.
    func setDeviceKey(_ key: [UInt8], for device: DeviceID, of account: SyncAccountID) async throws -> Bool

    /// In one transaction: moves the account to the rotation's key version, auth key and key
    /// ring, revokes its devices the rotation names, and keeps each wrapped key for its device
    /// (in place of an earlier one). False, and nothing changed, unless the account is at the
    /// version just before the rotation's.
    func rotateKey(_ rotation: SyncKeyRotationRecord, of account: SyncAccountID, at time: Date) async throws -> Bool
    /// The newest key wrapped for the account's device; nil if none was.
    func wrappedKey(for device: DeviceID, of account: SyncAccountID) async throws -> WrappedSyncKey?

    /// Applies the changes in one transaction, each decided by `PushDecision` against its entry
    /// as stored; every written change takes the account's next sequence, and the live version it
    /// replaces is kept as an earlier one (`earlierEntries`). A push that would take the account
    /// past `quota` (`StorageUsage.check`) throws `quotaExceeded`, nothing stored.
    func push(_ changes: [EntryChange], to account: SyncAccountID, at time: Date, quota: StorageQuota) async throws -> [PushResult]
    /// The device of a token digest (nil if none) and, unless it is revoked, the push applied to
    /// its account as `push(_:to:at:quota:)` applies it: a push's authentication and its writes
    /// together, in one round trip where the store can (so a revocation holds at once).
    func push(_ changes: [EntryChange], forToken digest: SecretDigest, at time: Date, quota: StorageQuota) async throws -> DevicePush?
    /// Up to `limit` entries with a sequence after `cursor`, in sequence order.
    func changes(of account: SyncAccountID, after cursor: Int64, limit: Int) async throws -> [SyncEntry]
    /// The account's latest sequence (0 before its first push).
    func head(of account: SyncAccountID) async throws -> Int64
    /// What a pull checks first: the highest sequence of a tombstone forgotten so far (0 if
    /// none; a cursor below it has missed a deletion), and the sync key's version.
    func pullBounds(of account: SyncAccountID) async throws -> PullBounds
    /// What a pull reads, as of one moment: the bounds, up to `limit` entries after `cursor` in
    /// sequence order, and the head (so never behind the entries).
    func page(of account: SyncAccountID, after cursor: Int64, limit: Int) async throws -> StoredPage
    /// The device of a token digest (nil if none) and, unless it is revoked, the page of its
    /// account, in one read: a pull's authentication and first page together.
    func page(forToken digest: SecretDigest, after cursor: Int64, limit: Int) async throws -> DevicePage?
    /// Up to `limit` of the account's earlier versions (replaced by a push, not yet forgotten)
    /// with a sequence after `cursor`, in sequence order.
    func earlierEntries(of account: SyncAccountID, after cursor: Int64, limit: Int) async throws -> [EarlierEntry]
    /// Forgets, in every account, the earlier versions `retention` does not keep
    /// (`HistoryRetention.kept`, with versions replaced before `cutoff` gone); returns how many went.
    func purgeHistory(_ retention: HistoryRetention, cutoff: Date) async throws -> Int
    /// Forgets tombstones changed before `time`, in every account, raising each horizon; returns
    /// how many went.
    func purgeTombstones(changedBefore time: Date) async throws -> Int
    /// The data's generation: the same while the data only moves forward, another once it was
    /// restored from a backup or replaced (sequences may then go back), so that clients notice
    /// and send again what the server lost. Opaque, at most 64 characters.
    func generation() async throws -> String
}

extension SyncServerStore {
    /// The token's device, then the push: two reads of the store (a store that can do both in
    /// one replaces it).
    public func push(_ changes: [EntryChange], forToken digest: SecretDigest, at time: Date, quota: StorageQuota) async throws
        -> DevicePush?
    {
        guard let device = try await device(withToken: digest) else { return nil }
        if device.isRevoked { return DevicePush(device: device, results: nil) }
        return DevicePush(device: device, results: try await push(changes, to: device.account, at: time, quota: quota))
    }

    /// A push with no storage quota.
    public func push(_ changes: [EntryChange], to account: SyncAccountID, at time: Date) async throws -> [PushResult] {
        try await push(changes, to: account, at: time, quota: .unlimited)
    }
}

/// What a pull checks before reading a page (`SyncServerStore.pullBounds(of:)`).
public struct PullBounds: Equatable, Sendable {
    public let horizon: Int64
    public let keyVersion: Int32

    public init(horizon: Int64, keyVersion: Int32) {
        self.horizon = horizon
        self.keyVersion = keyVersion
    }
}

/// What a pull reads from the store (`SyncServerStore.page(of:after:limit:)`).
public struct StoredPage: Equatable, Sendable {
    public let bounds: PullBounds
    public let entries: [SyncEntry]
    public let head: Int64

    public init(bounds: PullBounds, entries: [SyncEntry], head: Int64) {
        self.bounds = bounds
        self.entries = entries
        self.head = head
    }
}

/// A token's device and, unless the device is revoked, its account's page
/// (`SyncServerStore.page(forToken:after:limit:)`).
public struct DevicePage: Equatable, Sendable {
    public let device: SyncDevice
    public let page: StoredPage?

    public init(device: SyncDevice, page: StoredPage?) {
        self.device = device
        self.page = page
    }
}

/// A token's device and, unless the device is revoked, the results of its push
/// (`SyncServerStore.push(_:forToken:at:quota:)`).
public struct DevicePush: Equatable, Sendable {
    public let device: SyncDevice
    public let results: [PushResult]?

    public init(device: SyncDevice, results: [PushResult]?) {
        self.device = device
        self.results = results
    }
}

/// Recent enrolment attempts, counted for the limit.
public struct EnrolmentAttempts: Equatable, Sendable {
    public let forAccount: Int
    public let fromAddress: Int

    public init(forAccount: Int, fromAddress: Int) {
        self.forAccount = forAccount
        self.fromAddress = fromAddress
    }
}

/// Accounts opened (or tried) within the window: from one address, and in all.
public struct AccountCreations: Equatable, Sendable {
    public let fromAddress: Int
    public let inAll: Int

    public init(fromAddress: Int, inAll: Int) {
        self.fromAddress = fromAddress
        self.inAll = inAll
    }
}
