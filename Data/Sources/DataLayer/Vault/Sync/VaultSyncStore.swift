import Domain
import Foundation
import GRDB

/// The vault's side of sync (Domain's `SyncLocalStore` and `SyncMembershipStore`): the sync
/// state lives in the vault's own tables, sealed like the entries and covered by the manifest,
/// and a sync round's outcome lands in one transaction with the entries it changes. A change
/// made here while the round was away (the journal recorded it) stays as it is, still pending.
public struct VaultSyncStore: SyncLocalStore, SyncMembershipStore {
    private let vault: UnlockedVault
    private let clock: any WallClock

    public init(vault: UnlockedVault, clock: any WallClock) {
        self.vault = vault
        self.clock = clock
    }

    public func status() async throws -> SyncLocalStatus {
        try vault.read { db, keys, _ in
            let tables = VaultSyncTables(db: db, keys: keys)
            guard let account = try tables.account()?.state else { return SyncLocalStatus(membership: nil, pending: 0, lastSync: nil) }
            let pending = try tables.entries().values.filter(\.state.pending).count
            return SyncLocalStatus(
                membership: account.membership, pending: pending, lastSync: account.lastSync, conflicts: account.conflicts)
        }
    }

    public func begin(_ membership: SyncMembership, now: Date, joining: Bool) async throws {
        try vault.write { db, keys in
            let tables = VaultSyncTables(db: db, keys: keys)
            guard try tables.account() == nil else { throw SyncError.alreadySetUp }
            try tables.deleteAll()
            let stamp = HybridTimestamp(milliseconds: SyncAccountState.milliseconds(now), device: membership.enrolment.deviceID)
            let records = try EntryRecord.fetchAll(db)
            for (record, position) in zip(records, SyncRecording.initialPositions(count: records.count, joining: joining)) {
                let account = try EntryCipher.open(record, keys: keys)
                let state = SyncEntryState(record: SyncRecording.record(for: account, at: position, stamp: stamp), base: nil, pending: true)
                try tables.write(state, previous: nil)
            }
            try tables.write(SyncAccountState(membership: membership, cursor: 0, clock: stamp, lastSync: nil, conflicts: 0), version: 1)
        }
    }

    public func end() async throws {
        try vault.write { db, keys in
            let tables = VaultSyncTables(db: db, keys: keys)
            guard try tables.account() != nil else { throw SyncError.notSetUp }
            try tables.deleteAll()
        }
    }

    public func snapshot() async throws -> SyncSnapshot {
        try vault.read { db, keys, _ in
            let tables = VaultSyncTables(db: db, keys: keys)
            guard let account = try tables.account()?.state else { throw SyncError.notSetUp }
            var snapshot = SyncSnapshot(cursor: account.cursor)
            for (id, entry) in try tables.entries() {
                snapshot.records[id] = entry.state.record
                snapshot.bases[id] = entry.state.base
                if entry.state.pending { snapshot.pending.insert(id) }
            }
            return snapshot
        }
    }

    public func pendingCount() async throws -> Int {
        try await status().pending
    }

    public func commit(_ snapshot: SyncSnapshot, over taken: SyncSnapshot, report: SyncReport) async throws {
        let now = clock.now()
        try vault.write { db, keys in
            let tables = VaultSyncTables(db: db, keys: keys)
            guard let (stored, accountVersion) = try tables.account() else { throw SyncError.notSetUp }
            var account = stored
            let current = try tables.entries()
            // The entries' states as this round leaves them, for the order at the end.
            var states = current
            var latest = account.clock
            var moved = false
            for id in Set(snapshot.records.keys).union(taken.records.keys) {
                let entry = current[id]
                guard entry?.state.record == taken.records[id] else {
                    // Changed here while the round was away: keep it, pending, over the new base.
                    if let entry, entry.state.base != snapshot.bases[id] {
                        var state = entry.state
                        state.base = snapshot.bases[id]
                        state.pending = true
                        try tables.write(state, previous: entry.version)
                        states[id] = (state, entry.version + 1)
                    }
                    continue
                }
                guard let record = snapshot.records[id] else {
                    if entry != nil { try tables.deleteEntry(id) }
                    states[id] = nil
                    try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [id.uuidString])
                    continue
                }
                let state = SyncEntryState(record: record, base: snapshot.bases[id], pending: snapshot.pending.contains(id))
                if state != entry?.state {
                    try tables.write(state, previous: entry?.version)
                    states[id] = (state, (entry?.version ?? 0) + 1)
                }
                if record != entry?.state.record {
                    try VaultEntries.apply(record, db: db, keys: keys)
                    moved = true
                }
                latest = max(latest, record.stamps.max()!)
            }
            account.cursor = snapshot.cursor
            account.lastSync = now
            account.conflicts = report.conflictCopies.count
            account.clock = account.clock.receiving(latest, now: SyncAccountState.milliseconds(now))
            try tables.write(account, version: accountVersion + 1)
            if moved { try VaultEntries.orderByPosition(states, db: db) }
        }
    }
}
