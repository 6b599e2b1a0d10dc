import Domain
import Foundation

/// The sync server's behaviour in memory, for the client's tests: sequences per account,
/// compare-and-set pushes (a retry of the very record stored is "applied"), pages after a cursor,
/// and tombstones that can be expired. Test hooks: the page size, a failure for the next call,
/// and a replay of an entry's first version (what a dishonest server could do).
public actor InMemorySyncRemote: SyncRemote {
    private var entries: [UUID: RemoteEntry] = [:]
    private var firstVersions: [UUID: RemoteEntry] = [:]
    private var head: Int64 = 0
    private var horizon: Int64 = 0
    private var failure: SyncError?
    public var pageSize: Int

    public init(pageSize: Int = 500) { self.pageSize = pageSize }

    /// Every entry the server holds, tombstones included.
    public var stored: [RemoteEntry] { entries.values.sorted { $0.sequence < $1.sequence } }

    /// The next call fails with `error` (once).
    public func failNext(with error: SyncError) { failure = error }

    /// Forgets tombstones: cursors below the head are now expired.
    public func expireTombstones() {
        entries = entries.filter { !$0.value.record.isDeleted.value }
        horizon = head
    }

    /// Serves the first version stored of entry `id` again, under a new sequence.
    public func replayFirstVersion(of id: UUID) {
        guard let first = firstVersions[id] else { return }
        head += 1
        entries[id] = RemoteEntry(sequence: head, record: first.record, version: first.version)
    }

    public func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
        if let failure = takeFailure() { throw failure }
        guard cursor == 0 || cursor >= horizon else { throw .cursorExpired }
        let after = stored.filter { $0.sequence > cursor }
        return RemotePage(entries: Array(after.prefix(pageSize)), head: head, hasMore: after.count > pageSize)
    }

    public func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
        if let failure = takeFailure() { throw failure }
        return changes.map { change in
            let id = change.record.id
            if let current = entries[id] {
                if current.record == change.record, current.version == change.version { return .applied(sequence: current.sequence) }
                guard current.sequence == change.basedOn else { return .conflict(current: current) }
            }
            head += 1
            entries[id] = RemoteEntry(sequence: head, record: change.record, version: change.version)
            if firstVersions[id] == nil { firstVersions[id] = entries[id] }
            return .applied(sequence: head)
        }
    }

    private func takeFailure() -> SyncError? {
        defer { failure = nil }
        return failure
    }
}
