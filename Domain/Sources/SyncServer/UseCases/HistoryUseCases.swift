import Foundation

/// Reads the caller's account's earlier versions, a page at a time (the client decrypts them
/// for `tokens history`).
public protocol ReadHistoryUseCase: Sendable {
    /// Earlier versions after `cursor` in sequence order: `limit` at most (nil: the largest page).
    func execute(after cursor: Int64, limit: Int?, for caller: AuthenticatedDevice) async throws -> HistoryPage
}

/// ReadHistory over the store.
public struct DefaultReadHistoryUseCase: ReadHistoryUseCase {
    private let store: any SyncServerStore
    private let limits: SyncLimits

    public init(store: any SyncServerStore, limits: SyncLimits) {
        self.store = store
        self.limits = limits
    }

    public func execute(after cursor: Int64, limit: Int?, for caller: AuthenticatedDevice) async throws -> HistoryPage {
        let size = try limits.pageSize(limit, after: cursor)
        let entries = try await store.earlierEntries(of: caller.account, after: cursor, limit: size + 1)
        return HistoryPage(entries: Array(entries.prefix(size)), hasMore: entries.count > size)
    }
}

/// Forgets the earlier versions past the retention (run periodically by the server).
public protocol PurgeHistoryUseCase: Sendable {
    /// How many versions went.
    func execute() async throws -> Int
}

/// PurgeHistory over the store.
public struct DefaultPurgeHistoryUseCase: PurgeHistoryUseCase {
    private let store: any SyncServerStore
    private let clock: any ServerClock
    private let retention: HistoryRetention

    public init(store: any SyncServerStore, clock: any ServerClock, retention: HistoryRetention) {
        self.store = store
        self.clock = clock
        self.retention = retention
    }

    public func execute() async throws -> Int {
        try await store.purgeHistory(retention, cutoff: retention.cutoff(now: clock.now()))
    }
}
