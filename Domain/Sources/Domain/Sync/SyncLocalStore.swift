import Foundation

/// The local side of sync at the start of a round: every entry (local deletions as tombstones),
/// the base of each (the entry as the server last held it when both sides agreed), which ones
/// changed here since their base, and the cursor.
public struct SyncSnapshot: Sendable {
    public var cursor: Int64
    public var records: [UUID: SyncRecord]
    public var bases: [UUID: RemoteEntry]
    public var pending: Set<UUID>
    /// The server generation the cursor belongs to (nil: the server never said one).
    public var generation: String?
    /// The base each push the server acknowledged since the last pull was made on. Until a pull
    /// serves the push back, the server may yet have lost it (read your writes): then this, not
    /// the push, is what the server and this machine last agreed on.
    public var pushedOver: [UUID: RemoteEntry]
    /// HOTP counters this round's merges took off an entry with the key they belong to (another
    /// machine replaced the key meanwhile), to give to whichever entry holds that key now.
    var carriedCounters: [KeyMaterial: UInt64] = [:]
    /// The ids a partial round's snapshot was read for (`SyncPartialRound`): it holds those
    /// entries (an id without an entry has none) and says nothing of the others. Nil: every entry.
    public var part: Set<UUID>?

    public init(
        cursor: Int64 = 0, records: [UUID: SyncRecord] = [:], bases: [UUID: RemoteEntry] = [:], pending: Set<UUID> = [],
        generation: String? = nil, pushedOver: [UUID: RemoteEntry] = [:], part: Set<UUID>? = nil
    ) {
        self.part = part
        self.cursor = cursor
        self.records = records
        self.bases = bases
        self.pending = pending
        self.generation = generation
        self.pushedOver = pushedOver
    }
}

/// Where a round may start when the local side has nothing to send: every change made here was
/// sent and seen back from the server by the last round, and nothing changed here since. Then a
/// round that finds nothing new on the server ends without reading a snapshot of every entry.
public struct SyncQuietStart: Equatable, Sendable {
    public let cursor: Int64
    /// The server generation the cursor belongs to (nil: the server never said one).
    public let generation: String?

    public init(cursor: Int64, generation: String?) {
        self.cursor = cursor
        self.generation = generation
    }

    /// Whether an entry, as a round's commit leaves it, lets the next round start quiet: not
    /// pending, and no push of it waiting to be seen back (none acknowledged since the last pull,
    /// its base no later than the cursor).
    public static func isSettled(pending: Bool, pushedOver: RemoteEntry?, base: RemoteEntry?, cursor: Int64) -> Bool {
        !pending && pushedOver == nil && (base?.sequence ?? 0) <= cursor
    }
}

/// The local side of sync (Data: the vault's sync state, changed in the vault's transactions).
public protocol SyncLocalStore: Sendable {
    /// The cursor and generation alone, when nothing here waits to be sent or confirmed (the last
    /// round's commit saw every push back and nothing changed since); nil otherwise, or when the
    /// store cannot tell without reading every entry. Read before `snapshot`, so it must cost
    /// what one row costs.
    func quietStart() async throws -> SyncQuietStart?
    /// Records a round that started quiet and found nothing new on the server: when it synced,
    /// and what `report` measured (the clock); no entry changes.
    func commitQuiet(_ report: SyncReport) async throws
    func snapshot() async throws -> SyncSnapshot
    /// A round's start from the entries that wait to be sent or confirmed alone (their ids the
    /// snapshot's `part`), when the store keeps which they are and its last whole round left no
    /// twins to fold; nil otherwise (the round reads `snapshot`).
    func partialSnapshot() async throws -> SyncSnapshot?
    /// The entries of `ids` as stored, read by id: a snapshot whose `part` is `ids`.
    func entries(_ ids: Set<UUID>) async throws -> SyncSnapshot
    /// How many local changes wait to be sent (for the status line).
    func pendingCount() async throws -> Int
    /// Writes a round's outcome at once: `snapshot` is what the round ended with (an entry absent
    /// from it that `taken` had is gone; of a partial round's, only the entries of its `part`); entries changed here since `taken` (the snapshot the
    /// round began with) stay as they are, pending. `report` is what the round did (the store
    /// keeps what the status shows of it: the conflict copies).
    func commit(_ snapshot: SyncSnapshot, over taken: SyncSnapshot, report: SyncReport) async throws
}

extension SyncLocalStore {
    /// A store that cannot tell cheaply: every round reads a snapshot.
    public func quietStart() async throws -> SyncQuietStart? { nil }
    public func commitQuiet(_ report: SyncReport) async throws {}

    /// A store that does not keep which entries wait: every round that is not quiet is whole.
    public func partialSnapshot() async throws -> SyncSnapshot? { nil }

    public func entries(_ ids: Set<UUID>) async throws -> SyncSnapshot {
        let whole = try await snapshot()
        var part = SyncSnapshot(cursor: whole.cursor, generation: whole.generation, part: ids)
        for id in ids {
            part.records[id] = whole.records[id]
            part.bases[id] = whole.bases[id]
            part.pushedOver[id] = whole.pushedOver[id]
            if whole.pending.contains(id) { part.pending.insert(id) }
        }
        return part
    }

    /// `commit` of a round that reported nothing.
    public func commit(_ snapshot: SyncSnapshot, over taken: SyncSnapshot) async throws {
        try await commit(snapshot, over: taken, report: SyncReport())
    }
}
