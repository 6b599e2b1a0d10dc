import Domain
import Foundation

/// DEV's sync server, in the same process: the server's rules in memory (a sequence per
/// account, compare-and-set pushes where a retry of the very record stored is "applied", pages
/// after a cursor). Nothing leaves the process, so nothing is encrypted. It keeps the same
/// `SyncRemoteContract` as the real client talking to `tokens-server`.
public actor InProcessSyncServer: SyncRemote {
    private var entries: [UUID: RemoteEntry] = [:]
    private var head: Int64 = 0
    private let pageSize: Int

    public init(pageSize: Int = 500) { self.pageSize = pageSize }

    public func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
        let after = entries.values.filter { $0.sequence > cursor }.sorted { $0.sequence < $1.sequence }
        return RemotePage(entries: Array(after.prefix(pageSize)), head: head, hasMore: after.count > pageSize)
    }

    public func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
        changes.map { change in
            let id = change.record.id
            if let current = entries[id] {
                if current.record == change.record, current.version == change.version { return .applied(sequence: current.sequence) }
                guard current.sequence == change.basedOn else { return .conflict(current: current) }
            }
            head += 1
            entries[id] = RemoteEntry(sequence: head, record: change.record, version: change.version)
            return .applied(sequence: head)
        }
    }
}
