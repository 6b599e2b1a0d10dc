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

    /// The sync tables in one of the vault's transactions, with the rows this vault opened.
    private func tables(_ db: Database, _ keys: VaultKeys, patch: VaultIndexPatch? = nil) -> VaultSyncTables {
        VaultSyncTables(db: db, keys: keys, cache: vault.syncRows, patch: patch)
    }

    public func status() async throws -> SyncLocalStatus {
        try vault.read { db, keys, _ in
            let tables = self.tables(db, keys)
            guard let account = try tables.account()?.state, let membership = account.membership else {
                return SyncLocalStatus(membership: nil, pending: 0, lastSync: nil)
            }
            let pending = try tables.entries().values.filter(\.state.pending).count
            return SyncLocalStatus(
                membership: membership, pending: pending, lastSync: account.lastSync, conflicts: account.conflicts,
                revoked: account.revoked,
                clockOffset: account.clockOffset)
        }
    }

    /// The membership from the account's row alone (no entry is opened).
    /// From the account's row alone (`accountState`).
    public func membership() async throws -> SyncMembership? {
        try accountState()?.membership
    }

    /// The last clock offset measured, from the account's row alone; nil while this machine
    /// syncs with nothing.
    public func clockOffset() async throws -> ClockOffset? {
        guard let account = try accountState(), account.membership != nil else { return nil }
        return account.clockOffset
    }

    /// The account's state, its row checked against the vault's index alone (the read path:
    /// every command that syncs asks for it first); else with every row checked. Nil while this
    /// vault syncs with nothing.
    private func accountState() throws -> SyncAccountState? {
        if let indexed = try vault.indexedSyncAccountRow() {
            guard case .row(let row) = indexed else { return nil }
            return try VaultSyncTables.accountState(row, keys: vault.keys)
        }
        return try vault.read { db, keys, _ in try tables(db, keys).account()?.state }
    }

    /// Joining merges, never overwrites: entries the journal knows keep the stamps of their last
    /// change (a machine that left and joins again, or was offline, holds stale copies that must
    /// lose to later edits elsewhere); joining the same account again also keeps their bases
    /// and the cursor. Entries the journal never saw are stamped when they last changed here.
    public func begin(_ membership: SyncMembership, now: Date, joining: Bool) async throws {
        try vault.write { db, keys in
            let tables = self.tables(db, keys)
            let previous = try tables.account()
            guard previous?.state.membership == nil else { throw SyncError.alreadySetUp }
            let device = membership.enrolment.deviceID
            let sameAccount = previous?.state.account == membership.code.account
            var states = try tables.entries()
            if !sameAccount {
                // Another account's server never held these: live entries go to it as new ones.
                for (id, entry) in states {
                    guard !entry.state.record.isDeleted.value else {
                        try tables.deleteEntry(id)
                        states[id] = nil
                        continue
                    }
                    let state = SyncEntryState(record: entry.state.record, base: nil, pending: true)
                    try tables.write(state, previous: entry.version)
                    states[id] = (state, entry.version + 1)
                }
            }
            let milliseconds = SyncAccountState.milliseconds(now)
            var clock = HybridTimestamp(milliseconds: milliseconds, device: device)
            if let known = previous?.state.clock {
                clock = HybridTimestamp(milliseconds: known.milliseconds, counter: known.counter, device: device).next(now: milliseconds)
            }
            let unknown = try EntryTable.all(db).filter { UUID(text: $0.id).map { states[$0] == nil } ?? true }
            let last = states.values.filter { !$0.state.record.isDeleted.value }.map(\.state.record.position.value).max()
            let positions =
                states.isEmpty
                ? SyncRecording.initialPositions(count: unknown.count, joining: joining)
                : SyncRecording.positions(appending: unknown.count, after: last)
            for (record, position) in zip(unknown, positions) {
                let account = try EntryCipher.open(record, keys: keys)
                let changed = min(SyncAccountState.milliseconds(account.updatedAt), milliseconds)
                let stamp = HybridTimestamp(milliseconds: changed, device: device)
                try tables.write(
                    SyncEntryState(record: SyncRecording.record(for: account, at: position, stamp: stamp), base: nil, pending: true),
                    previous: nil)
            }
            let state = SyncAccountState(
                membership: membership, account: membership.code.account, cursor: sameAccount ? previous?.state.cursor ?? 0 : 0,
                clock: clock, lastSync: nil, conflicts: 0, generation: sameAccount ? previous?.state.generation : nil)
            try tables.write(state, version: (previous?.version ?? 0) + 1)
        }
    }

    /// Forgets the membership and its secrets (sync key, token); the journal stays, so the
    /// entries' stamps survive until this machine joins again.
    public func end() async throws {
        try vault.write { db, keys in
            let tables = self.tables(db, keys)
            guard let (stored, version) = try tables.account(), stored.membership != nil else { throw SyncError.notSetUp }
            var state = stored
            state.membership = nil
            state.conflicts = 0
            state.revoked = false
            try tables.write(state, version: version + 1)
        }
    }

    public func recordRevoked() async throws {
        try vault.write { db, keys in
            let tables = self.tables(db, keys)
            guard let (stored, version) = try tables.account(), stored.membership != nil, !stored.revoked else { return }
            var state = stored
            state.revoked = true
            try tables.write(state, version: version + 1)
        }
    }

    /// The same account under another key (or with a device secret); with `resend`, every entry
    /// the server holds is sent again as it is, sealed under the new key.
    public func replace(with membership: SyncMembership, resend: Bool) async throws {
        try vault.write { db, keys in
            let tables = self.tables(db, keys)
            guard let (stored, version) = try tables.account(), let current = stored.membership,
                current.code.account == membership.code.account
            else { throw SyncError.notSetUp }
            var state = stored
            state.membership = membership
            if resend {
                state.allSent = false
                state.unsettled = nil
            }
            try tables.write(state, version: version + 1)
            guard resend else { return }
            for (_, entry) in try tables.entries() where !entry.state.pending {
                var resent = entry.state
                resent.pending = true
                try tables.write(resent, previous: entry.version)
            }
        }
    }

    /// From the account's row alone (no entry is opened): set by the last commit when it left
    /// nothing pending and every push seen back, cleared by the journal at any change here.
    /// From the account's row alone (`accountState`).
    public func quietStart() async throws -> SyncQuietStart? {
        guard let account = try accountState(), account.membership != nil, account.allSent else { return nil }
        return SyncQuietStart(cursor: account.cursor, generation: account.generation)
    }

    /// The account's row alone: when it synced, no conflict copies, the clock measured. Written
    /// through the index (`replaceSyncAccountRow`), which checks that row and no other.
    public func commitQuiet(_ report: SyncReport) async throws {
        let now = clock.now()
        let recorded = { (stored: SyncAccountState) throws -> SyncAccountState in
            guard stored.membership != nil else { throw SyncError.notSetUp }
            var account = stored
            account.record(report, at: now)
            return account
        }
        let replaced = try vault.replaceSyncAccountRow { row, keys in
            try VaultSyncTables.sealed(recorded(try VaultSyncTables.accountState(row, keys: keys)), version: row.version + 1, keys: keys)
        }
        guard !replaced else { return }
        try vault.write { db, keys in
            let tables = self.tables(db, keys)
            guard let (stored, version) = try tables.account() else { throw SyncError.notSetUp }
            try tables.write(try recorded(stored), version: version + 1)
        }
    }

    public func snapshot() async throws -> SyncSnapshot {
        try vault.read { db, keys, _ in
            let tables = self.tables(db, keys)
            guard let account = try tables.account()?.state, account.membership != nil else { throw SyncError.notSetUp }
            return Self.snapshot(of: try tables.entries(), cursor: account.cursor, generation: account.generation)
        }
    }

    /// The entries the account's row names unsettled, each read by id, when the row keeps them
    /// and the last whole round left no twins; nil otherwise. Read in place: the account's row
    /// and those entries' rows are checked against the index, and no other row is read.
    public func partialSnapshot() async throws -> SyncSnapshot? {
        try vault.readInPlace { db, keys, patch in
            let tables = self.tables(db, keys, patch: patch)
            guard let account = try tables.account()?.state, account.membership != nil else { throw SyncError.notSetUp }
            guard let unsettled = account.unsettled, account.noTwins else { return nil }
            return Self.snapshot(of: try tables.entries(unsettled), cursor: account.cursor, generation: account.generation, part: unsettled)
        }
    }

    /// The entries of `ids`, each read by id and checked against the index.
    public func entries(_ ids: Set<UUID>) async throws -> SyncSnapshot {
        try vault.readInPlace { db, keys, patch in
            let tables = self.tables(db, keys, patch: patch)
            guard let account = try tables.account()?.state, account.membership != nil else { throw SyncError.notSetUp }
            return Self.snapshot(of: try tables.entries(ids), cursor: account.cursor, generation: account.generation, part: ids)
        }
    }

    private static func snapshot(
        of entries: [UUID: (state: SyncEntryState, version: Int)], cursor: Int64, generation: String?, part: Set<UUID>? = nil
    ) -> SyncSnapshot {
        var snapshot = SyncSnapshot(cursor: cursor, generation: generation, part: part)
        for (id, entry) in entries {
            snapshot.records[id] = entry.state.record
            snapshot.bases[id] = entry.state.base
            snapshot.pushedOver[id] = entry.state.pushedOver
            if entry.state.pending { snapshot.pending.insert(id) }
        }
        return snapshot
    }

    public func pendingCount() async throws -> Int {
        try await status().pending
    }

    /// A partial round's outcome is written in place when it only rewrites rows (no entry added,
    /// removed or moved): the rows it reads are checked against the index and the rows it writes
    /// sealed into it. Anything else, and a whole round's, is the whole write.
    public func commit(_ snapshot: SyncSnapshot, over taken: SyncSnapshot, report: SyncReport) async throws {
        let now = clock.now()
        if !snapshot.isWhole,
            try vault.writeInPlace({ db, keys, patch in
                try commit(snapshot, over: taken, report: report, now: now, tables: tables(db, keys, patch: patch))
            }) != nil
        {
            return
        }
        try vault.write { db, keys in try commit(snapshot, over: taken, report: report, now: now, tables: tables(db, keys)) }
    }

    private func commit(_ snapshot: SyncSnapshot, over taken: SyncSnapshot, report: SyncReport, now: Date, tables: VaultSyncTables) throws {
        let (db, keys) = (tables.db, tables.keys)
        guard let (stored, accountVersion) = try tables.account(), stored.membership != nil else { throw SyncError.notSetUp }
        var account = stored
        let ids = Set(snapshot.records.keys).union(taken.records.keys)
        // A partial round's commit reads and writes the entries it holds alone.
        let current = snapshot.isWhole ? try tables.entries() : try tables.entries(ids.union(snapshot.part ?? []))
        // Where each entry stands as this round leaves it (its position, whether it is
        // settled), for the order and `allSent` at the end: a few bytes an entry, not the
        // whole state (a kilobyte each, and a join of 10 000 held them all twice).
        var placements = current.mapValues { EntryPlacement($0.state, cursor: snapshot.cursor) }
        var latest = account.clock
        var moved = false
        var changedHere = false
        var adding: [Account] = []
        for id in ids {
            let entry = current[id]
            guard entry?.state.record == taken.records[id] else {
                // Changed here while the round was away: keep it, pending, over the new base.
                changedHere = true
                if let entry, entry.state.base != snapshot.bases[id] || entry.state.pushedOver != snapshot.pushedOver[id] {
                    var state = entry.state
                    state.base = snapshot.bases[id]
                    state.pushedOver = snapshot.pushedOver[id]
                    state.pending = true
                    try tables.write(state, previous: entry.version)
                    placements[id] = EntryPlacement(state, cursor: snapshot.cursor)
                }
                continue
            }
            guard let record = snapshot.records[id] else {
                if entry != nil { try tables.deleteEntry(id) }
                placements[id] = nil
                if tables.patch != nil { throw VaultIndexPatch.NeedsWholeWrite() }
                try EntryTable.deleteIfPresent(id.text, db)
                continue
            }
            let state = SyncEntryState(
                record: record, base: snapshot.bases[id], pending: snapshot.pending.contains(id), pushedOver: snapshot.pushedOver[id])
            if state != entry?.state {
                try tables.write(state, previous: entry?.version)
                placements[id] = EntryPlacement(state, cursor: snapshot.cursor)
            }
            if record != entry?.state.record {
                if let added = try VaultEntries.apply(record, db: db, keys: keys, patch: tables.patch) { adding.append(added) }
                // A partial round's entries keep their place unless their position changed.
                moved = moved || snapshot.isWhole || record.position.value != entry?.state.record.position.value
            }
            latest = max(latest, record.stamps.max()!)
        }
        account.cursor = snapshot.cursor
        account.generation = snapshot.generation
        account.record(report, at: now)
        account.clock = account.clock.receiving(latest, now: SyncAccountState.milliseconds(now))
        if snapshot.isWhole {
            account.unsettled = Set(placements.filter { !$0.value.isSettled }.keys)
            account.noTwins = !changedHere && !SyncPartialRound.twinsRemain(in: snapshot.records, bases: snapshot.bases)
        } else if var unsettled = stored.unsettled {
            for id in ids.union(snapshot.part ?? []) {
                if placements[id]?.isSettled ?? true { unsettled.remove(id) } else { unsettled.insert(id) }
            }
            account.unsettled = unsettled
            if changedHere { account.noTwins = false }
        } else {
            // No longer kept (a resend meanwhile): the next round is whole.
            account.noTwins = false
        }
        account.allSent = account.unsettled?.isEmpty ?? false
        try tables.write(account, version: accountVersion + 1)
        if tables.patch != nil, moved || !adding.isEmpty { throw VaultIndexPatch.NeedsWholeWrite() }
        if !adding.isEmpty { try EntryTable.insert(adding, keys: keys, db) }
        if moved {
            let positions =
                snapshot.isWhole ? placements.mapValues(\.position) : try tables.entries().mapValues(\.state.record.position.value)
            try VaultEntries.orderByPosition(positions, db: db)
        }
    }
}

/// Where a sync entry stands after a round's commit: its position in the list, and whether it
/// lets the next round start quiet (`SyncQuietStart.isSettled`).
struct EntryPlacement {
    let position: FractionalPosition
    let isSettled: Bool

    init(_ state: SyncEntryState, cursor: Int64) {
        position = state.record.position.value
        isSettled = SyncQuietStart.isSettled(pending: state.pending, pushedOver: state.pushedOver, base: state.base, cursor: cursor)
    }
}
