import Domain
import Foundation

/// The sync server's behaviour in memory, for the client's tests: sequences per account,
/// compare-and-set pushes (a retry of the very record stored is "applied"), pages after a cursor,
/// and tombstones that can be expired. Test hooks: the page size, a failure for the next call,
/// what a dishonest server could do (a replay of an entry's first version, an entry left out of a
/// forced resync, garbage over an entry, a push acknowledged and lost), and a backup of its
/// data restored later (its sequences go back; its generation changes when it tells one).
public actor InMemorySyncRemote: SyncRemote {
    private var entries: [UUID: RemoteEntry] = [:]
    private var firstVersions: [UUID: RemoteEntry] = [:]
    private var head: Int64 = 0
    private var horizon: Int64 = 0
    private var failure: SyncError?
    private var restores = 0
    /// Entries replaced by something no machine can open (a device's garbage): id → sequence.
    private var poisoned: [UUID: Int64] = [:]
    public var pageSize: Int
    /// Whether pages name the server's generation (a server that does not leaves a restore to be
    /// noticed by its head alone).
    public var tellsGeneration: Bool
    /// The time each page says the server answered at (nil: pages tell none, as by default).
    public private(set) var serverTime: ServerTimeSample?
    /// Every version ever stored, in order (restores do not take any back).
    public private(set) var history: [RemoteEntry] = []

    public init(pageSize: Int = 500, tellsGeneration: Bool = true) {
        self.pageSize = pageSize
        self.tellsGeneration = tellsGeneration
    }

    /// Pages from now on tell `sample` as the server's time.
    public func tellTime(_ sample: ServerTimeSample?) { serverTime = sample }

    /// The server's data at one moment, to restore later.
    public struct Backup: Sendable {
        fileprivate let entries: [UUID: RemoteEntry]
        fileprivate let poisoned: [UUID: Int64]
        fileprivate let firstVersions: [UUID: RemoteEntry]
        fileprivate let head: Int64
        fileprivate let horizon: Int64
    }

    /// Replaces entry `id` with a ciphertext no machine can open, under a new sequence (what any
    /// holder of a device token could push).
    public func poison(_ id: UUID) {
        head += 1
        entries[id] = nil
        poisoned[id] = head
    }

    /// The next push is answered "applied" at new sequences, and nothing of it is stored (a
    /// dishonest or broken server).
    public func dropNextPush() { dropsNextPush = true }
    private var dropsNextPush = false

    /// The next pull after a cursor is refused as expired (410), and the full pull that follows
    /// leaves entry `id` out (a hostile server deleting by omission); nothing stored changes.
    /// `nil` ends a pending omission.
    public func omitInNextResync(_ id: UUID?) {
        omitting = id
        expiresNextCursor = id != nil
    }
    private var omitting: UUID?
    private var expiresNextCursor = false

    /// A copy of the data as it is now.
    public func backup() -> Backup {
        Backup(entries: entries, poisoned: poisoned, firstVersions: firstVersions, head: head, horizon: horizon)
    }

    /// The data as `backup` held it: every change since is gone, sequences go back, and the
    /// generation changes.
    public func restore(_ backup: Backup) {
        entries = backup.entries
        poisoned = backup.poisoned
        firstVersions = backup.firstVersions
        head = backup.head
        horizon = backup.horizon
        restores += 1
    }

    /// Every entry the server holds, tombstones included.
    public var stored: [RemoteEntry] { entries.values.sorted { $0.sequence < $1.sequence } }

    /// The next call fails with `error` (once).
    public func failNext(with error: SyncError) { failure = error }

    /// Forgets tombstones: cursors below the head are now expired.
    public func expireTombstones() {
        entries = entries.filter { !$0.value.record.isDeleted.value }
        horizon = head
    }

    /// `replayFirstVersion(of:atMadeUpSequence:)` at `ahead` past the server's head: past every
    /// sequence it used, the garbage it stores in place of an entry included.
    public func replayFirstVersion(of id: UUID, aheadOfHead ahead: Int64) {
        replayFirstVersion(of: id, atMadeUpSequence: head + ahead)
    }

    /// Serves the first version stored of entry `id` again, under a new sequence.
    /// The next pull (one whose cursor is before `sequence`) also serves the first version of `id`
    /// at `sequence`, a number the server made up (a hostile or broken server); nothing is stored.
    public func replayFirstVersion(of id: UUID, atMadeUpSequence sequence: Int64) {
        guard let first = firstVersions[id] else { return }
        madeUp = RemoteEntry(sequence: sequence, record: first.record, version: first.version)
    }
    private var madeUp: RemoteEntry?

    public func replayFirstVersion(of id: UUID) {
        guard let first = firstVersions[id] else { return }
        head += 1
        entries[id] = RemoteEntry(sequence: head, record: first.record, version: first.version)
    }

    public func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
        if let failure = takeFailure() { throw failure }
        guard cursor == 0 || cursor >= horizon else { throw .cursorExpired }
        if expiresNextCursor, cursor > 0 {
            expiresNextCursor = false
            throw .cursorExpired
        }
        var served = stored.filter { $0.sequence > cursor }
        if cursor == 0, let omitted = omitting {
            served.removeAll { $0.record.id == omitted }
            omitting = nil
            expiresNextCursor = false
        }
        if let replay = madeUp, replay.sequence > cursor {
            served.append(replay)
            madeUp = nil
        }
        let readable = served.map { (sequence: $0.sequence, entry: Optional($0), bad: UnreadableEntry?.none) }
        let bad = poisoned.filter { $0.value > cursor }.map {
            (sequence: $0.value, entry: RemoteEntry?.none, bad: Optional(UnreadableEntry(id: $0.key, sequence: $0.value)))
        }
        let after = (readable + bad).sorted { $0.sequence < $1.sequence }
        let page = after.prefix(pageSize)
        return RemotePage(
            entries: page.compactMap(\.entry), unreadable: page.compactMap(\.bad), head: head, hasMore: after.count > pageSize,
            generation: tellsGeneration ? "generation-\(restores)" : nil, serverTime: serverTime)
    }

    public func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
        if let failure = takeFailure() { throw failure }
        if dropsNextPush {
            dropsNextPush = false
            return changes.map { _ in
                head += 1
                return .applied(sequence: head)
            }
        }
        return changes.map { change in
            let id = change.record.id
            if let garbage = poisoned[id] {
                guard change.basedOn == garbage else { return .conflictUnreadable(sequence: garbage) }
                poisoned[id] = nil
            }
            if let current = entries[id] {
                if current.record == change.record, current.version == change.version { return .applied(sequence: current.sequence) }
                guard current.sequence == change.basedOn else { return .conflict(current: current) }
            }
            head += 1
            entries[id] = RemoteEntry(sequence: head, record: change.record, version: change.version)
            if firstVersions[id] == nil { firstVersions[id] = entries[id] }
            history.append(entries[id]!)
            return .applied(sequence: head)
        }
    }

    private func takeFailure() -> SyncError? {
        defer { failure = nil }
        return failure
    }
}
