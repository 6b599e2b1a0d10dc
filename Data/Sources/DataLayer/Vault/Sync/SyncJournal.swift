import Domain
import Foundation
import GRDB
import SyncRecordCoding

/// Records each local change as a pending sync record, in the vault transaction that makes the
/// change, so no change can be stored without being queued for the server (or the reverse).
/// Does nothing in a vault that syncs with nothing.
struct SyncJournal {
    private let tables: VaultSyncTables
    private var account: SyncAccountState
    private let accountVersion: Int
    private var entries: [UUID: (state: SyncEntryState, version: Int)]?
    private let now: Date

    /// The journal of the vault in `db`; nil when it is not a member of a sync account.
    /// With `patch` (a write in place), the rows it reads are checked against the index and the
    /// rows it writes recorded in it (`VaultSyncTables.patch`).
    static func open(_ db: Database, keys: VaultKeys, cache: SyncRowCache? = nil, patch: VaultIndexPatch? = nil, now: Date) throws
        -> SyncJournal?
    {
        let tables = VaultSyncTables(db: db, keys: keys, cache: cache, patch: patch)
        guard let (account, version) = try tables.account() else { return nil }
        return SyncJournal(tables: tables, account: account, accountVersion: version, entries: nil, now: now)
    }

    /// Runs `body` with the journal when the vault syncs, and saves the clock it moved.
    static func record(
        _ db: Database, keys: VaultKeys, cache: SyncRowCache? = nil, patch: VaultIndexPatch? = nil, now: Date,
        _ body: (inout SyncJournal) throws -> Void
    ) throws {
        guard var journal = try open(db, keys: keys, cache: cache, patch: patch, now: now) else { return }
        try body(&journal)
        try journal.tables.write(journal.account, version: journal.accountVersion + 1)
    }

    private mutating func states() throws -> [UUID: (state: SyncEntryState, version: Int)] {
        if let entries { return entries }
        let loaded = try tables.entries()
        entries = loaded
        return loaded
    }

    /// The state of entry `id` alone (read by id, unless every state was read already): an edit
    /// or a deletion of one account opens one sync row, not all of them.
    private mutating func state(of id: UUID) throws -> (state: SyncEntryState, version: Int)? {
        if let entries { return entries[id] }
        return try tables.entries([id])[id]
    }

    /// New accounts, after every live entry in the shared order.
    mutating func added(_ accounts: [Account]) throws {
        guard !accounts.isEmpty else { return }
        let existing = try states()
        let last = existing.values.filter { !$0.state.record.isDeleted.value }.map(\.state.record.position.value).max()
        let stamp = account.stamp(now: now)
        for (account, position) in zip(accounts, SyncRecording.positions(appending: accounts.count, after: last)) {
            // An id the journal knew (deleted here, then added again by import) continues its row.
            let previous = existing[account.id]
            var record = SyncRecording.record(for: account, at: position, stamp: stamp)
            if let old = previous?.state.record { record.counter = max(record.counter, old.counter) }
            try put(
                previous?.state.changed(to: record) ?? SyncEntryState(record: record, base: nil, pending: true), previous: previous?.version
            )
        }
    }

    /// An account edited here (a counter advanced, a field changed).
    mutating func edited(_ account: Account) throws {
        guard let current = try state(of: account.id) else { return try added([account]) }
        let stamp = self.account.stamp(now: now)
        let record = SyncRecording.updating(current.state.record, to: account, stamp: stamp)
        guard record != current.state.record else { return }
        try put(current.state.changed(to: record), previous: current.version)
    }

    /// An account deleted here: its record stays as a tombstone to send.
    mutating func deleted(_ id: UUID) throws {
        guard let current = try state(of: id) else { return }
        let record = SyncRecording.deleting(current.state.record, stamp: account.stamp(now: now))
        try put(current.state.changed(to: record), previous: current.version)
    }

    /// The user's new order of the live entries: only the entries that moved get new positions.
    mutating func reordered(_ order: [UUID]) throws {
        let current = try states()
        let positions = SyncRecording.positions(
            for: order, current: current.compactMapValues { $0.state.record.isDeleted.value ? nil : $0.state.record.position.value })
        var stamp: HybridTimestamp?
        for id in order {
            guard let entry = current[id], let position = positions[id], entry.state.record.position.value != position else { continue }
            let at = stamp ?? account.stamp(now: now)
            stamp = at
            let record = SyncRecording.moving(entry.state.record, to: position, stamp: at)
            try put(entry.state.changed(to: record), previous: entry.version)
        }
    }

    /// A field only a newer build of Tokens knows, set to `value` on entry `id` as that build
    /// would: stamped, pending (the lifecycle model's machine on a newer build).
    mutating func setNewerField(_ name: String, to value: String, on id: UUID) throws {
        guard let current = try state(of: id) else { return }
        let stamp = account.stamp(now: now)
        let at = JSONValue.object([
            "ms": .integer(stamp.milliseconds), "c": .integer(Int64(stamp.counter)), "d": .string(stamp.device.uuidString),
        ])
        var record = current.state.record
        record.unknown.fields[name] = SyncUnknownParts.Field(
            json: JSONValue.object(["v": .string(value), "at": at]).text, changedAt: stamp)
        try put(current.state.changed(to: record), previous: current.version)
    }

    private mutating func put(_ state: SyncEntryState, previous: Int?) throws {
        account.allSent = false
        account.unsettled?.insert(state.record.id)
        try tables.write(state, previous: previous)
        entries?[state.record.id] = (state, (previous ?? 0) + 1)
    }
}
