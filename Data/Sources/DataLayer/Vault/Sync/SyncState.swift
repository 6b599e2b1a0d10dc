import Domain
import Foundation
import GRDB

/// One entry's sync state: its record, its base, and whether it changed here since.
struct SyncEntryState: Equatable, Sendable {
    var record: SyncRecord
    var base: RemoteEntry?
    var pending: Bool
    /// The base a push acknowledged since the last pull was made on (SyncSnapshot.pushedOver).
    var pushedOver: RemoteEntry? = nil

    /// This entry changed here to `record`: pending, on the same base (and pushed-over base).
    func changed(to record: SyncRecord) -> SyncEntryState {
        SyncEntryState(record: record, base: base, pending: true, pushedOver: pushedOver)
    }
}

/// This machine's sync account state. After leaving, the row stays without its secrets (no
/// sync key, no token): the journal goes on stamping each change, so a machine that joins again
/// merges with what it knows instead of passing stale copies off as new writes.
struct SyncAccountState: Equatable, Sendable {
    /// nil once this machine has left the account.
    var membership: SyncMembership?
    /// The sync account joined last (kept after leaving: joining it again keeps the bases).
    var account: UUID
    var cursor: Int64
    /// The latest hybrid clock reading this device made or saw.
    var clock: HybridTimestamp
    var lastSync: Date?
    /// The conflict copies the last sync made.
    var conflicts: Int
    /// The server generation the cursor belongs to.
    var generation: String?
    /// The server refused this machine as revoked (until it leaves).
    var revoked = false
    /// How far the server's clock was from this machine's at the last sync that could tell.
    var clockOffset: ClockOffset? = nil
    /// The last round's commit left nothing to send or confirm (no entry pending, every push
    /// seen back), and no change was recorded here since: a round may start from this row alone
    /// (`VaultSyncStore.quietStart`). False in rows of older builds, and after any change here.
    var allSent = false
    /// The entries that are not settled (`SyncQuietStart.isSettled`): what a partial round
    /// starts from (`VaultSyncStore.partialSnapshot`). Nil when not kept (rows of older builds,
    /// a new membership, a resend): the next round is whole, and its commit keeps them again.
    var unsettled: Set<UUID>? = nil
    /// The last whole round's commit left no twins to fold (`SyncTwins.remain`), and no change
    /// made here while it was away: a partial round (which does not look for twins) may start.
    var noTwins = false

    /// What a round's commit keeps of it, whatever it changed: when it ended, its conflict copies,
    /// the clock offset it measured (else the last one stays).
    mutating func record(_ report: SyncReport, at now: Date) {
        lastSync = now
        conflicts = report.conflictCopies.count
        if let offset = report.clockOffset { clockOffset = offset }
    }

    /// The reading for a change made here at `now`, the clock moved on to it.
    mutating func stamp(now: Date) -> HybridTimestamp {
        clock = clock.next(now: Self.milliseconds(now))
        return clock
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// The vault's sync tables read and written inside one of the vault's transactions: each row
/// JSON sealed by `SealedSyncRow`, its plaintext wiped after use. With the vault's `cache`, an
/// entry row already opened from the same bytes is not opened again.
struct VaultSyncTables {
    let db: Database
    let keys: VaultKeys
    var cache: SyncRowCache? = nil
    /// The index open in place (`UnlockedVault.readInPlace`, `writeInPlace`): each row read is
    /// checked against it, each row written recorded in it; a row to add or remove is refused
    /// (`VaultIndexPatch.NeedsWholeWrite`). Nil: the transaction checked every row.
    var patch: VaultIndexPatch? = nil

    /// The account state and its row's version; nil when this vault syncs with nothing.
    func account() throws -> (state: SyncAccountState, version: Int)? {
        let row = try SealedSyncRow.fetchAll(db, .account).first
        try patch?.check(sync: .account, id: "1", row)
        guard let row else { return nil }
        return (try Self.accountState(row, keys: keys), row.version)
    }

    func write(_ state: SyncAccountState, version: Int) throws {
        if patch != nil, version == 1 { throw VaultIndexPatch.NeedsWholeWrite() }
        let row = try Self.sealed(state, version: version, keys: keys)
        try row.write(db)
        try patch?.replaced(sync: row)
    }

    /// The account state the row `row` holds.
    static func accountState(_ row: SealedSyncRow, keys: VaultKeys) throws -> SyncAccountState {
        var plaintext = try row.open(keys: keys)
        defer { plaintext.wipe() }
        guard let dto = JSONDecoder().decodedWiping(SyncAccountStateDTO.self, from: plaintext), let state = dto.toDomain() else {
            throw VaultError.entryDamaged(id: "sync_account")
        }
        return state
    }

    /// `state` sealed as version `version` of the account's row.
    static func sealed(_ state: SyncAccountState, version: Int, keys: VaultKeys) throws -> SealedSyncRow {
        var plaintext = try json(SyncAccountStateDTO(state))
        defer { plaintext.wipe() }
        return try SealedSyncRow.seal(plaintext, table: .account, id: "1", version: version, keys: keys)
    }

    /// Every entry's state and its row's version.
    func entries() throws -> [UUID: (state: SyncEntryState, version: Int)] {
        if patch != nil { throw VaultIndexPatch.NeedsWholeWrite() }
        var opened: [String: SyncRowCache.Opened] = [:]
        let result = try Self.opening(try SealedSyncRow.fetchAll(db, .entry), keys: keys, cache: cache, into: &opened)
        cache?.keep(opened)
        return result
    }

    /// The states of the entries of `ids` that have a row, and their rows' versions: each row read
    /// by id, the others neither read nor opened (inside a write, which checked every row).
    func entries(_ ids: some Collection<UUID>) throws -> [UUID: (state: SyncEntryState, version: Int)] {
        var opened: [String: SyncRowCache.Opened] = [:]
        let rows = try SealedSyncRow.fetchEntries(db, ids: ids)
        if let patch {
            let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for id in ids { try patch.check(sync: .entry, id: id.text, byID[id.text]) }
        }
        let result = try Self.opening(rows, keys: keys, cache: cache, into: &opened)
        for (id, row) in opened { cache?.keep(id, row) }
        return result
    }

    /// `rows` opened (or found in `cache`, from the same sealed bytes), each added to `opened`.
    private static func opening(
        _ rows: [SealedSyncRow], keys: VaultKeys, cache: SyncRowCache?, into opened: inout [String: SyncRowCache.Opened]
    ) throws -> [UUID: (state: SyncEntryState, version: Int)] {
        let known = cache?.opened() ?? [:]
        opened.reserveCapacity(rows.count)
        var result: [UUID: (SyncEntryState, Int)] = [:]
        result.reserveCapacity(rows.count)
        let decoder = JSONDecoder()
        for row in rows {
            guard let id = UUID(text: row.id) else { throw VaultError.entryDamaged(id: "sync_entry \(row.id)") }
            let state: SyncEntryState
            if let hit = known[row.id], hit.holds(row) {
                state = hit.state
                opened[row.id] = hit
            } else {
                var plaintext = try row.open(keys: keys)
                defer { plaintext.wipe() }
                guard
                    let dto = SyncEntryStateDTO(exactJSON: plaintext)
                        ?? decoder.decodedWiping(SyncEntryStateDTO.self, from: plaintext),
                    let decoded = dto.toDomain(),
                    decoded.record.id == id
                else { throw VaultError.entryDamaged(id: "sync_entry \(row.id)") }
                state = decoded
                cache?.countOpening()
                opened[row.id] = SyncRowCache.Opened(row, state: state)
            }
            result[id] = (state, row.version)
        }
        return result
    }

    /// Stores `state` as the row after version `previous` (nil: a new row).
    func write(_ state: SyncEntryState, previous: Int?) throws {
        if patch != nil, previous == nil { throw VaultIndexPatch.NeedsWholeWrite() }
        let dto = SyncEntryStateDTO(state)
        var plaintext = try dto.exactJSON() ?? Self.json(dto)
        defer { plaintext.wipe() }
        let row = try SealedSyncRow.seal(plaintext, table: .entry, id: state.record.id.text, version: (previous ?? 0) + 1, keys: keys)
        try row.write(db)
        try patch?.replaced(sync: row)
        cache?.keep(row, state: state)
    }

    func deleteEntry(_ id: UUID) throws {
        if patch != nil { throw VaultIndexPatch.NeedsWholeWrite() }
        try SealedSyncRow.delete(.entry, id: id.text, db)
        cache?.forget(id.text)
    }

    /// Empties both tables.
    func deleteAll() throws {
        if patch != nil { throw VaultIndexPatch.NeedsWholeWrite() }
        try db.execute(sql: "DELETE FROM sync_entry")
        try db.execute(sql: "DELETE FROM sync_account")
        cache?.clear()
    }

    /// The JSON a row holds: sorted keys, the shape `SyncEntryStateDTO(exactJSON:)` reads.
    static func json(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(value))
    }

    private func seal(_ value: some Encodable, table: SealedSyncRow.Table, id: String, version: Int) throws -> SealedSyncRow {
        var plaintext = try Self.json(value)
        defer { plaintext.wipe() }
        return try SealedSyncRow.seal(plaintext, table: table, id: id, version: version, keys: keys)
    }
}
