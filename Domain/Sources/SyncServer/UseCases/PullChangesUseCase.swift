/// A page of the account's changes after a cursor.
public protocol PullChangesUseCase: Sendable {
    /// `limit` nil means the largest page.
    func execute(after cursor: Int64, limit: Int?, for caller: AuthenticatedDevice) async throws -> PullPage
}

/// PullChanges over the store. A cursor of 0 is a full pull; a cursor older than the tombstone
/// horizon is refused (the client must resync from 0 and merge).
public struct DefaultPullChangesUseCase: PullChangesUseCase {
    private let store: any SyncServerStore
    private let clock: any ServerClock
    private let limits: SyncLimits

    public init(store: any SyncServerStore, clock: any ServerClock, limits: SyncLimits) {
        self.store = store
        self.clock = clock
        self.limits = limits
    }

    public func execute(after cursor: Int64, limit: Int?, for caller: AuthenticatedDevice) async throws -> PullPage {
        let size = limit ?? limits.pageSize
        guard cursor >= 0 else { throw SyncServerError.invalid("the cursor must not be negative") }
        guard (1...limits.pageSize).contains(size) else { throw SyncServerError.invalid("a page has 1 to \(limits.pageSize) entries") }
        let horizon = try await store.horizon(of: caller.account)
        guard cursor == 0 || cursor >= horizon else { throw SyncServerError.cursorExpired(horizon: horizon) }
        let entries = try await store.changes(of: caller.account, after: cursor, limit: size + 1)
        // Read after the entries, so the head is never behind a page.
        let head = try await store.head(of: caller.account)
        return PullPage(
            entries: Array(entries.prefix(size)), head: head, serverTime: clock.now(), hasMore: entries.count > size)
    }
}
