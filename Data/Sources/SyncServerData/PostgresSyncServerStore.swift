import Crypto
import Foundation
import Logging
import PostgresNIO
import SyncServer
import Synchronization

/// The sync server's store on PostgreSQL: the SQL of `PostgresStatements` through the pooled
/// client of the host that takes writes (`PostgresPrimary`, which the caller runs), every query
/// naming the account. A push (`PostgresPush`) locks its account's row, so within an account
/// sequences follow commit order and a pull after a cursor never misses a change; each change is
/// decided by Domain's `PushDecision`, as in the in-memory store.
///
/// Every call has `deadline` to finish; a database that cannot be reached in that time, or that
/// is full or read-only, is `SyncServerError.unavailable` (503 with Retry-After), and its
/// transaction, if any, is rolled back: nothing half-stored.
public final class PostgresSyncServerStore: SyncServerStore {
    private typealias SQL = PostgresStatements

    private let primary: PostgresPrimary
    var client: PostgresClient { primary.client }
    private let logger: Logger
    private let deadline: Duration
    private let deadlines: CallDeadlines
    /// The outage last met, until a call is served again.
    private let outageState = Mutex<StoreOutage?>(nil)
    private let generationCache = Mutex<(value: String, read: ContinuousClock.Instant)?>(nil)

    /// A store on one client that the caller runs.
    public convenience init(client: PostgresClient, logger: Logger, deadline: Duration = .seconds(10)) {
        self.init(primary: PostgresPrimary(fixed: client, logger: logger), logger: logger, deadline: deadline)
    }

    /// A store on the primary of a URL's hosts.
    public init(primary: PostgresPrimary, logger: Logger, deadline: Duration = .seconds(10)) {
        self.primary = primary
        self.logger = logger
        self.deadline = deadline
        // Checked ten times within a deadline (at most every second): a call ends within 1.1 deadlines.
        deadlines = CallDeadlines(tick: min(deadline / 10, .seconds(1)))
    }

    /// Creates or upgrades the tables (run on start, before serving), on the host that takes
    /// writes. A failure is a `PostgresMigrationError`, told in one sentence.
    public func migrate() async throws {
        await primary.locate()
        do {
            try await PostgresSchema.migrate(client, logger: logger)
        } catch {
            throw PostgresMigrationError.of(error)
        }
    }

    /// Ready when the database answers within the deadline and takes writes (a standby in
    /// recovery does not: `.readOnly`).
    public func checkReady() async throws {
        let inRecovery = try await guarded { [self] in
            let rows = try await client.query("SELECT pg_is_in_recovery()", logger: SQL.queryLogger)
            return try await rows.decode(Bool.self).collected().first ?? true
        }
        if inRecovery {
            primary.suspect()
            throw SyncServerError.unavailable(.readOnly)
        }
    }

    public func takeInvitation(_ digest: SecretDigest, for account: SyncAccountID, at time: Date) async throws -> Bool {
        try await guarded { [self] in
            let rows = try await client.query(
                SQL.query(SQL.takeInvitation, Data(digest.bytes), account.uuid, time), logger: SQL.queryLogger)
            return try await rows.decode(Data.self).collected().count == 1
        }
    }

    public func createAccount(_ account: SyncAccountRecord) async throws {
        try await guarded { [self] in
            let rows = try await client.query(
                SQL.query(SQL.createAccount, account.id.uuid, Data(account.authKeyDigest.bytes), account.createdAt), logger: SQL.queryLogger
            )
            guard try await rows.decode(UUID.self).collected().count == 1 else { throw SyncServerError.accountExists }
        }
    }

    public func account(_ id: SyncAccountID) async throws -> SyncAccountRecord? {
        try await guarded { [self] in
            let rows = try await client.query(SQL.query(SQL.account, id.uuid), logger: SQL.queryLogger)
            return try await rows.decode((Data, Date, Int32, Data?).self).collected().first.map { digest, created, version, ring in
                SyncAccountRecord(
                    id: id, authKeyDigest: SecretDigest(bytes: Array(digest)), createdAt: created, keyVersion: version,
                    keyRing: ring.map { Array($0) })
            }
        }
    }

    public func recordEnrolmentAttempt(
        account: SyncAccountID, address: String, at time: Date, since: Date
    ) async throws -> EnrolmentAttempts {
        try await guarded { [self] in
            try await client.withTransaction(logger: SQL.queryLogger) { connection in
                try await connection.query(SQL.query(SQL.forgetEnrolmentAttempts, since), logger: SQL.queryLogger)
                try await connection.query(SQL.query(SQL.recordEnrolmentAttempt, account.uuid, address, time), logger: SQL.queryLogger)
                let rows = try await connection.query(
                    SQL.query(SQL.countEnrolmentAttempts, account.uuid, address, since), logger: SQL.queryLogger)
                let counts: (Int64, Int64) = try await rows.decode((Int64, Int64).self).collected().first ?? (0, 0)
                return EnrolmentAttempts(forAccount: Int(counts.0), fromAddress: Int(counts.1))
            }
        }
    }

    public func recordAccountCreation(address: String, at time: Date, since: Date) async throws -> AccountCreations {
        try await guarded { [self] in
            try await client.withTransaction(logger: SQL.queryLogger) { connection in
                try await connection.query(SQL.query(SQL.forgetAccountCreations, since), logger: SQL.queryLogger)
                try await connection.query(SQL.query(SQL.recordAccountCreation, address, time), logger: SQL.queryLogger)
                let rows = try await connection.query(SQL.query(SQL.countAccountCreations, address, since), logger: SQL.queryLogger)
                let counts: (Int64, Int64) = try await rows.decode((Int64, Int64).self).collected().first ?? (0, 0)
                return AccountCreations(fromAddress: Int(counts.0), inAll: Int(counts.1))
            }
        }
    }

    public func addDevice(_ device: SyncDevice, limit: Int) async throws -> Bool {
        try await guarded { [self] in
            try await client.withTransaction(logger: SQL.queryLogger) { connection in
                let rows = try await connection.query(
                    SQL.query(SQL.lockAccountCountingDevices, device.account.uuid), logger: SQL.queryLogger)
                guard let active = try await rows.decode(Int64.self).collected().first, active < limit else { return false }
                try await connection.query(
                    SQL.query(
                        SQL.addDevice, device.account.uuid, device.id.uuid, device.name, Data(device.tokenDigest.bytes), device.enrolledAt,
                        Data(device.deviceKey ?? [])),
                    logger: SQL.queryLogger)
                return true
            }
        }
    }

    public func devices(of account: SyncAccountID) async throws -> [SyncDevice] {
        try await guarded { [self] in
            var devices: [SyncDevice] = []
            let rows = try await client.query(SQL.query(SQL.devices, account.uuid), logger: SQL.queryLogger)
            for try await (account, id, name, digest, enrolled, revoked, key, seen) in rows.decode(
                (UUID, UUID, String, Data, Date, Date?, Data?, Date?).self)
            {
                var device = Self.device(account, id, name, digest, enrolled, revoked, key)
                device.lastSeenAt = seen
                devices.append(device)
            }
            return devices
        }
    }

    public func recordActivity(_ sightings: [DeviceSeen]) async throws {
        guard !sightings.isEmpty else { return }
        _ = try await guarded { [self] in
            try await client.query(
                SQL.query(
                    SQL.recordActivity, sightings.map(\.account.uuid), sightings.map(\.device.uuid), sightings.map(\.at)),
                logger: SQL.queryLogger
            ).collected()
        }
    }

    public func device(withToken digest: SecretDigest) async throws -> SyncDevice? {
        try await guarded { [self] in
            try await deviceRows(SQL.query(SQL.deviceWithToken, Data(digest.bytes))).first
        }
    }

    public func revokeDevice(_ id: DeviceID, of account: SyncAccountID, at time: Date) async throws -> Bool {
        try await guarded { [self] in
            let rows = try await client.query(SQL.query(SQL.revokeDevice, time, account.uuid, id.uuid), logger: SQL.queryLogger)
            return try await !rows.decode(UUID.self).collected().isEmpty
        }
    }

    public func setDeviceKey(_ key: [UInt8], for device: DeviceID, of account: SyncAccountID) async throws -> Bool {
        try await guarded { [self] in
            let rows = try await client.query(SQL.query(SQL.setDeviceKey, Data(key), account.uuid, device.uuid), logger: SQL.queryLogger)
            return try await rows.decode(Data.self).collected().first.map { Array($0) == key } ?? false
        }
    }

    public func rotateKey(_ rotation: SyncKeyRotationRecord, of account: SyncAccountID, at time: Date) async throws -> Bool {
        try await guarded { [self] in
            try await client.withTransaction(logger: SQL.queryLogger) { connection in
                let moved = try await connection.query(
                    SQL.query(
                        SQL.rotateAccountKey, rotation.keyVersion, Data(rotation.authKeyDigest.bytes), Data(rotation.keyRing ?? []),
                        account.uuid),
                    logger: SQL.queryLogger)
                guard try await !moved.decode(UUID.self).collected().isEmpty else { return false }
                try await connection.query(
                    SQL.query(SQL.revokeDevices, time, account.uuid, rotation.revoke.map(\.uuid)), logger: SQL.queryLogger)
                for (device, bytes) in rotation.wrapped.sorted(by: { $0.key.uuid.uuidString < $1.key.uuid.uuidString }) {
                    try await connection.query(
                        SQL.query(SQL.keepWrappedKey, account.uuid, device.uuid, rotation.keyVersion, Data(bytes)), logger: SQL.queryLogger)
                }
                return true
            }
        }
    }

    public func wrappedKey(for device: DeviceID, of account: SyncAccountID) async throws -> WrappedSyncKey? {
        try await guarded { [self] in
            let rows = try await client.query(SQL.query(SQL.wrappedKey, account.uuid, device.uuid), logger: SQL.queryLogger)
            return try await rows.decode((Int32, Data).self).collected().first.map { WrappedSyncKey(keyVersion: $0, bytes: Array($1)) }
        }
    }

    public func push(_ changes: [EntryChange], to account: SyncAccountID, at time: Date, quota: StorageQuota) async throws -> [PushResult] {
        let push = PostgresPush(changes: changes, account: account, time: time, quota: quota)
        return try await guarded { [self] in
            if let applied = try await push.inOneStatement(on: client) { return applied }
            return try await push.inTransaction(on: client)
        }
    }

    public func push(_ changes: [EntryChange], forToken digest: SecretDigest, at time: Date, quota: StorageQuota) async throws
        -> DevicePush?
    {
        let first = try await guarded { [self] in
            try await PostgresPush.inOneStatement(changes, token: digest, at: time, quota: quota, on: client)
        }
        guard let (device, applied) = first else {
            // Unknown or revoked (the statement wrote nothing): which one, read alone.
            guard let device = try await device(withToken: digest) else { return nil }
            return device.isRevoked ? DevicePush(device: device, results: nil) : nil
        }
        if let applied { return DevicePush(device: device, results: applied) }
        let push = PostgresPush(changes: changes, account: device.account, time: time, quota: quota)
        return DevicePush(device: device, results: try await guarded { [self] in try await push.inTransaction(on: client) })
    }

    public func changes(of account: SyncAccountID, after cursor: Int64, limit: Int) async throws -> [SyncEntry] {
        try await guarded { [self] in
            try await client.withConnection { connection in
                try await Self.entries(connection, logger: SQL.queryLogger, SQL.query(SQL.changes, account.uuid, cursor, Int64(limit)))
            }
        }
    }

    public func head(of account: SyncAccountID) async throws -> Int64 {
        try await guarded { [self] in
            try await counter(SQL.query(SQL.head, account.uuid))
        }
    }

    public func pullBounds(of account: SyncAccountID) async throws -> PullBounds {
        try await guarded { [self] in
            let rows = try await client.query(SQL.query(SQL.pullBounds, account.uuid), logger: SQL.queryLogger)
            let (horizon, keyVersion) = try await rows.decode((Int64, Int32).self).collected().first ?? (Int64(0), Int32(1))
            return PullBounds(horizon: horizon, keyVersion: keyVersion)
        }
    }

    public func page(of account: SyncAccountID, after cursor: Int64, limit: Int) async throws -> StoredPage {
        try await guarded { [self] in
            let rows = try await client.query(SQL.query(SQL.page, account.uuid, cursor, Int64(limit)), logger: SQL.queryLogger)
            var read = PageRows()
            for try await (horizon, keyVersion, head, id, seq, deleted, entryKeyVersion, nonce, ciphertext, changed) in rows.decode(
                (Int64, Int32, Int64, UUID?, Int64?, Bool?, Int32?, Data?, Data?, Date?).self)
            {
                read.add(horizon, keyVersion, head, id, seq, deleted, entryKeyVersion, nonce, ciphertext, changed)
            }
            return read.page
        }
    }

    public func page(forToken digest: SecretDigest, after cursor: Int64, limit: Int) async throws -> DevicePage? {
        try await guarded { [self] in
            let rows = try await client.query(
                SQL.query(SQL.pageForToken, cursor, Int64(limit), Data(digest.bytes)), logger: SQL.queryLogger)
            var device: SyncDevice?
            var read = PageRows()
            for try await (
                account, deviceID, name, token, enrolled, revoked, key, horizon, keyVersion, head, id, seq, deleted, entryKeyVersion,
                nonce, ciphertext, changed
            ) in rows.decode(
                (UUID, UUID, String, Data, Date, Date?, Data?, Int64, Int32, Int64, UUID?, Int64?, Bool?, Int32?, Data?, Data?, Date?).self)
            {
                device = Self.device(account, deviceID, name, token, enrolled, revoked, key)
                read.add(horizon, keyVersion, head, id, seq, deleted, entryKeyVersion, nonce, ciphertext, changed)
            }
            guard let device else { return nil }
            return DevicePage(device: device, page: device.isRevoked ? nil : read.page)
        }
    }

    public func earlierEntries(of account: SyncAccountID, after cursor: Int64, limit: Int) async throws -> [EarlierEntry] {
        try await guarded { [self] in
            try await client.withConnection { connection in
                var earlier: [EarlierEntry] = []
                let rows = try await connection.query(
                    SQL.query(SQL.earlierEntries, account.uuid, cursor, Int64(limit)), logger: SQL.queryLogger)
                for try await (id, seq, keyVersion, nonce, ciphertext, changed, replaced) in rows.decode(
                    (UUID, Int64, Int32, Data, Data, Date, Date).self)
                {
                    let payload = EntryPayload(isDeleted: false, keyVersion: keyVersion, nonce: Array(nonce), ciphertext: Array(ciphertext))
                    earlier.append(
                        EarlierEntry(
                            entry: SyncEntry(id: EntryID(id), sequence: seq, payload: payload, changedAt: changed), replacedAt: replaced))
                }
                return earlier
            }
        }
    }

    /// Housekeeping, not a request: no deadline.
    public func purgeHistory(_ retention: HistoryRetention, cutoff: Date) async throws -> Int {
        try await guarded(within: nil) { [self] in
            Int(try await counter(SQL.query(SQL.purgeHistory, cutoff, Int64(retention.versionsPerEntry), Int64(retention.bytes))))
        }
    }

    /// Housekeeping, not a request: no deadline (a large purge must be allowed to finish). A
    /// transaction for each `tombstoneBatch` accounts, locked before their entries are deleted
    /// (`PostgresStatements.lockAccountsWithTombstones`), so pushes wait for at most one batch.
    public func purgeTombstones(changedBefore time: Date) async throws -> Int {
        try await guarded(within: nil) { [self] in
            var purged = 0
            while true {
                let (count, accounts) = try await client.withTransaction(logger: SQL.queryLogger) { connection in
                    let locked = try await connection.query(
                        SQL.query(SQL.lockAccountsWithTombstones, time, Int64(Self.tombstoneBatch)), logger: SQL.queryLogger
                    ).decode(UUID.self).collected()
                    guard !locked.isEmpty else { return (0, 0) }
                    let rows = try await connection.query(SQL.query(SQL.purgeTombstones, time, locked), logger: SQL.queryLogger)
                    return (Int(try await rows.decode(Int64.self).collected().first ?? 0), locked.count)
                }
                purged += count
                if accounts < Self.tombstoneBatch { return purged }
            }
        }
    }

    static let tombstoneBatch = 100

    /// The generation as an opaque digest of `PostgresStatements.generation`, read again at most
    /// every `generationLifetime` (a restore is noticed within that time).
    public func generation() async throws -> String {
        let now = ContinuousClock.now
        if let cached = generationCache.withLock({ $0 }), now - cached.read < Self.generationLifetime { return cached.value }
        let raw = try await guarded { [self] in
            do {
                return try await text(SQL.query(SQL.generation))
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
                return try await text(SQL.query(SQL.generationWithoutControl))
            }
        }
        let value = SHA256.hash(data: Data(raw.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        generationCache.withLock { $0 = (value, now) }
        return value
    }

    static let generationLifetime = Duration.seconds(5)

    /// Runs one call within `deadline`, turning the database's outages into `unavailable`.
    private func guarded<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await guarded(within: deadline, operation)
    }

    /// `guarded`, within `limit` (nil: no limit).
    func guarded<T: Sendable>(within limit: Duration?, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        PostgresStoreMetrics.callsInFlight.increment()
        defer { PostgresStoreMetrics.callsInFlight.decrement() }
        do {
            let value: T
            if let limit { value = try await deadlines.run(within: limit, operation) } else { value = try await operation() }
            served()
            return value
        } catch is CallDeadlines.Expired {
            PostgresStoreMetrics.deadline.increment()
            primary.suspect()
            noteOutage(.unreachable)
            throw SyncServerError.unavailable(.unreachable)
        } catch {
            let mapped = outageOrRefusal(error)
            PostgresStoreMetrics.failed(mapped)
            throw mapped
        }
    }

    /// A refusal of the rules thrown inside a transaction, as it was thrown (postgres-nio wraps
    /// it); a database that cannot serve, as `unavailable`; anything else as it is (a 500).
    private func outageOrRefusal(_ error: any Error) -> any Error {
        var causes = [error]
        if let transaction = error as? PostgresTransactionError {
            if let refusal = transaction.closureError as? SyncServerError { return refusal }
            causes = [transaction.beginError, transaction.closureError, transaction.commitError].compactMap { $0 }
        }
        guard let outage = causes.lazy.compactMap({ PostgresOutage.of(any: $0) }).first else { return error }
        noteOutage(outage)
        if outage != .full { primary.suspect() }
        return SyncServerError.unavailable(outage)
    }

    /// A warning when the database stops serving (or fails otherwise than it did), not one per
    /// failed call: an outage under load would be thousands of lines.
    private func noteOutage(_ outage: StoreOutage) {
        let changed = outageState.withLock { state in
            defer { state = outage }
            return state != outage
        }
        if changed { logger.warning("database unavailable; answering 503 until it serves again", metadata: ["outage": "\(outage)"]) }
    }

    /// A call served: a notice if it ends an outage.
    private func served() {
        if let ended = outageState.withLock({ $0.take() }) { logger.notice("database serving again", metadata: ["after": "\(ended)"]) }
    }

    private func text(_ query: PostgresQuery) async throws -> String {
        try await client.query(query, logger: SQL.queryLogger).decode(String.self).collected().first ?? ""
    }

    private func counter(_ query: PostgresQuery) async throws -> Int64 {
        try await client.query(query, logger: SQL.queryLogger).decode(Int64.self).collected().first ?? 0
    }

    private func deviceRows(_ query: PostgresQuery) async throws -> [SyncDevice] {
        var devices: [SyncDevice] = []
        let rows = try await client.query(query, logger: SQL.queryLogger)
        for try await (account, id, name, digest, enrolled, revoked, key) in rows.decode(
            (UUID, UUID, String, Data, Date, Date?, Data?).self)
        {
            devices.append(Self.device(account, id, name, digest, enrolled, revoked, key))
        }
        return devices
    }

    /// A device's columns, in the order `PostgresStatements` reads them.
    private static func device(
        _ account: UUID, _ id: UUID, _ name: String, _ digest: Data, _ enrolled: Date, _ revoked: Date?, _ key: Data?
    ) -> SyncDevice {
        SyncDevice(
            id: DeviceID(id), account: SyncAccountID(account), name: name, tokenDigest: SecretDigest(bytes: Array(digest)),
            enrolledAt: enrolled, revokedAt: revoked, deviceKey: key.map { Array($0) })
    }

    private static func entries(_ connection: PostgresConnection, logger: Logger, _ query: PostgresQuery) async throws -> [SyncEntry] {
        var entries: [SyncEntry] = []
        let rows = try await connection.query(query, logger: SQL.queryLogger)
        for try await (id, seq, deleted, keyVersion, nonce, ciphertext, changed) in rows.decode(
            (UUID, Int64, Bool, Int32, Data, Data, Date).self)
        {
            if let entry = PageRows.entry(id, seq, deleted, keyVersion, nonce, ciphertext, changed) { entries.append(entry) }
        }
        return entries
    }
}

extension AsyncSequence {
    /// Every element, read to the end (a row stream is never left half-read on a connection).
    func collected() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}

extension PostgresSyncServerStore {
    /// A store on the database at `url` (one host, or a primary and its standbys), with the
    /// primary's clients: the caller runs them (`PostgresPrimary.run()`) for as long as the store
    /// is used, and migrates before serving.
    public static func make(url: String, logger: Logger) throws -> (store: PostgresSyncServerStore, primary: PostgresPrimary) {
        let primary = try PostgresPrimary(url: url, logger: logger)
        return (PostgresSyncServerStore(primary: primary, logger: logger), primary)
    }
}
