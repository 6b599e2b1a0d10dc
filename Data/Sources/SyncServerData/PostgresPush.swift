import Foundation
import PostgresNIO
import SyncServer

/// One push. First in one statement (`inOneStatement`, `PostgresPushFunction`), which takes a push
/// of plain writes within the quota, the common case. Any other push runs inside its transaction,
/// in two statements: `pushState` locks the account and reads what the rules need (head, storage
/// use, the named entries as stored); Domain's `PushDecision` decides each change and
/// `StorageUsage` checks the quota here, in Swift; then `writeEntries` stores every write, keeps
/// the versions they replace, moves the head and sends the change notification, which PostgreSQL
/// delivers at commit. A push that writes nothing sends no second statement.
struct PostgresPush {
    private typealias SQL = PostgresStatements

    let changes: [EntryChange]
    let account: SyncAccountID
    let time: Date
    let quota: StorageQuota

    /// Every change applied, in order, when the push was only plain writes within the quota; nil
    /// when it wrote nothing and needs `run` (in a transaction).
    func inOneStatement(on client: PostgresClient) async throws -> [PushResult]? {
        guard !changes.isEmpty else { return nil }
        let payloads = PayloadColumns(changes.map(\.payload))
        let rows = try await client.query(
            SQL.query(
                SQL.push, account.uuid, changes.map(\.id.uuid), changes.map(\.basedOn), payloads.deleted, payloads.keyVersions,
                payloads.nonces, payloads.ciphertexts, time, Int64(quota.entries), Int64(quota.bytes), PostgresChangeNotifier.channel),
            logger: SQL.queryLogger)
        guard let head = try await rows.decode(Int64?.self).collected().first ?? nil else { return nil }
        return Self.applied(changes.count, after: head)
    }

    /// `count` changes applied at the sequences after `head`, in order.
    private static func applied(_ count: Int, after head: Int64) -> [PushResult] {
        (1...Int64(count)).map { .applied(sequence: head + $0) }
    }

    /// The push decided by the rules, in its transaction (`run`).
    func inTransaction(on client: PostgresClient) async throws -> [PushResult] {
        try await client.withTransaction(logger: SQL.queryLogger) { connection in try await run(on: connection) }
    }

    /// `inOneStatement` for the device of a token digest, checked in the same statement: nil when
    /// the token is unknown or its device revoked (nothing written); else the device, and the
    /// results when the push was only plain writes within the quota (nil: it needs `run`).
    static func inOneStatement(
        _ changes: [EntryChange], token: SecretDigest, at time: Date, quota: StorageQuota, on client: PostgresClient
    ) async throws -> (device: SyncDevice, results: [PushResult]?)? {
        let payloads = PayloadColumns(changes.map(\.payload))
        let rows = try await client.query(
            SQL.query(
                SQL.pushForToken, Data(token.bytes), changes.map(\.id.uuid), changes.map(\.basedOn), payloads.deleted, payloads.keyVersions,
                payloads.nonces, payloads.ciphertexts, time, Int64(quota.entries), Int64(quota.bytes), PostgresChangeNotifier.channel),
            logger: SQL.queryLogger)
        let row = try await rows.decode((Int64?, UUID?, UUID?, String?, Date?, Data?).self).collected().first
        guard let (head, account, id, name, enrolled, key) = row, let account, let id, let name, let enrolled else { return nil }
        let device = SyncDevice(
            id: DeviceID(id), account: SyncAccountID(account), name: name, tokenDigest: token, enrolledAt: enrolled, revokedAt: nil,
            deviceKey: key.map { Array($0) })
        guard let head, !changes.isEmpty else { return (device, nil) }
        return (device, applied(changes.count, after: head))
    }

    func run(on connection: PostgresConnection) async throws -> [PushResult] {
        var state = try await Self.state(of: account, naming: changes, on: connection)
        // Read before the lock was ours: read again, now that no other push can write.
        if !state.current { state = try await Self.state(of: account, naming: changes, on: connection) }
        guard state.current else { throw PushStateError.moving }
        var head = state.head
        var stored = state.entries
        var usage = state.usage
        var results: [PushResult] = []
        var writes: [SyncEntry] = []
        for change in changes {
            let current = stored[change.id]
            switch PushDecision.decide(change, stored: current) {
            case .write:
                usage.write(change.payload, replacing: current?.payload)
                head += 1
                let written = SyncEntry(id: change.id, sequence: head, payload: change.payload, changedAt: time)
                stored[change.id] = written
                writes.append(written)
                results.append(.applied(sequence: head))
            case .alreadyApplied(let sequence): results.append(.applied(sequence: sequence))
            case .conflict(let current): results.append(.conflict(current: current))
            }
        }
        // Past the quota: thrown before anything is written, and the transaction rolls back.
        try usage.check(state.quota.applied(to: quota), from: state.usage)
        for batch in Self.batches(writes) { try await write(batch, on: connection) }
        return results
    }

    private func write(_ batch: [SyncEntry], on connection: PostgresConnection) async throws {
        let payloads = PayloadColumns(batch.map(\.payload))
        // Read to the end: PostgreSQL sends the statement's row before its writes are done, so a
        // failure of a write (a full disk) comes after the row, and unread it would go unseen;
        // the transaction would then be rolled back by a COMMIT that does not fail.
        _ = try await connection.query(
            SQL.query(
                SQL.writeEntries, batch.map(\.id.uuid), payloads.deleted, payloads.keyVersions, payloads.nonces, payloads.ciphertexts,
                time, account.uuid, (batch.first?.sequence ?? 1) - 1, PostgresChangeNotifier.channel),
            logger: SQL.queryLogger
        ).collected()
    }

    /// The writes (at consecutive sequences) in runs of distinct entries, since one statement
    /// cannot write a row twice: an entry a push writes twice starts a new run, whose statement
    /// keeps the first write as an earlier version.
    static func batches(_ writes: [SyncEntry]) -> [[SyncEntry]] {
        var batches: [[SyncEntry]] = []
        var current: [SyncEntry] = []
        var ids: Set<EntryID> = []
        for write in writes {
            if ids.contains(write.id) {
                batches.append(current)
                current = []
                ids = []
            }
            current.append(write)
            ids.insert(write.id)
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// What `pushState` read.
    struct State {
        var head: Int64 = 0
        /// Whether the account's row was the version the statement's snapshot saw: if it moved
        /// while the statement waited for the lock, the other columns are from before.
        var current = false
        var usage = StorageUsage(entries: 0, bytes: 0)
        /// The operator's quota for the account, where it replaces the server's.
        var quota = AccountQuota.serverDefault
        var entries: [EntryID: SyncEntry] = [:]
    }

    static func state(of account: SyncAccountID, naming changes: [EntryChange], on connection: PostgresConnection) async throws -> State {
        let rows = try await connection.query(
            SQL.query(SQL.pushState, account.uuid, Array(Set(changes.map(\.id.uuid)))), logger: SQL.queryLogger)
        var state: State?
        for try await (head, current, live, bytes, quotaEntries, quotaBytes, id, seq, deleted, keyVersion, nonce, ciphertext, changed)
            in rows.decode((Int64, Bool, Int64, Int64, Int64?, Int64?, UUID?, Int64?, Bool?, Int32?, Data?, Data?, Date?).self)
        {
            if state == nil {
                state = State(
                    head: head, current: current, usage: StorageUsage(entries: Int(live), bytes: Int(bytes)),
                    quota: AccountQuota(entries: quotaEntries.map(Int.init), bytes: quotaBytes.map(Int.init)))
            }
            if let entry = PageRows.entry(id, seq, deleted, keyVersion, nonce, ciphertext, changed) { state?.entries[entry.id] = entry }
        }
        // No row: the account is gone (its devices' tokens with it).
        guard let state else { throw SyncServerError.unauthorized }
        return state
    }
}

/// The account's row kept moving under a push that held its lock: cannot happen while every
/// writer of the row takes the lock; answered as a server error rather than decided on old data.
enum PushStateError: Error {
    case moving
}

/// Payloads as the columns both push statements take, one array a column.
struct PayloadColumns {
    let deleted: [Bool]
    let keyVersions: [Int32]
    let nonces: [ByteBuffer]
    let ciphertexts: [ByteBuffer]

    init(_ payloads: [EntryPayload]) {
        deleted = payloads.map(\.isDeleted)
        keyVersions = payloads.map(\.keyVersion)
        nonces = payloads.map { ByteBuffer(bytes: $0.nonce) }
        ciphertexts = payloads.map { ByteBuffer(bytes: $0.ciphertext) }
    }
}
