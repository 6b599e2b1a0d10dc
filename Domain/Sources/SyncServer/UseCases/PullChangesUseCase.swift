import Foundation

/// A page of the account's changes after a cursor, waiting for one when asked (a long-poll).
public protocol PullChangesUseCase: Sendable {
    /// `limit` nil means the largest page. `waiting` seconds (0 to `SyncLimits.longPollLimit`):
    /// when nothing follows the cursor, wait up to that long (or the server's own, shorter limit)
    /// for a change before answering (an empty page if none came).
    func execute(after cursor: Int64, limit: Int?, waiting: Int, for caller: AuthenticatedDevice) async throws -> PullPage
}

/// PullChanges over the store. A cursor of 0 is a full pull; a cursor older than the tombstone
/// horizon is refused (the client must resync from 0 and merge).
public struct DefaultPullChangesUseCase: PullChangesUseCase {
    private let store: any SyncServerStore
    private let clock: any ServerClock
    private let notifier: any ChangeNotifier
    private let limits: SyncLimits
    private let waiting: WaitingPulls

    /// `waiting` counts the pulls that wait; one per server (every pull use case of it shares it).
    public init(
        store: any SyncServerStore, clock: any ServerClock, notifier: any ChangeNotifier, limits: SyncLimits, waiting: WaitingPulls? = nil
    ) {
        self.store = store
        self.clock = clock
        self.notifier = notifier
        self.limits = limits
        self.waiting = waiting ?? WaitingPulls(limits: limits)
    }

    public func execute(after cursor: Int64, limit: Int?, waiting: Int, for caller: AuthenticatedDevice) async throws -> PullPage {
        let size = try limits.pageSize(limit, after: cursor)
        guard (0...SyncLimits.longPollLimit).contains(waiting) else {
            throw SyncServerError.invalid("a pull waits 0 to \(SyncLimits.longPollLimit) seconds")
        }
        let deadline = clock.now().addingTimeInterval(Double(min(waiting, limits.longPollSeconds)))
        var page = try await self.page(after: cursor, size: size, of: caller.account)
        guard page.entries.isEmpty, waiting > 0, limits.longPollSeconds > 0 else { return try await answer(page) }
        switch await self.waiting.enter(caller.device) {
        case .refuse: throw SyncServerError.tooManyWaiting(limit: limits.waitingPullsPerDevice, retryAfterSeconds: 5)
        case .answerNow: return try await answer(page)
        case .wait: break
        }
        do {
            page = try await waitForChange(after: cursor, size: size, until: deadline, from: page, for: caller)
        } catch {
            await self.waiting.leave(caller.device)
            throw error
        }
        await self.waiting.leave(caller.device)
        return try await answer(page)
    }

    /// Waiting reads only the head; the page is read again once the head moved past the cursor.
    private func waitForChange(
        after cursor: Int64, size: Int, until deadline: Date, from first: PullPage, for caller: AuthenticatedDevice
    ) async throws -> PullPage {
        var page = first
        while page.entries.isEmpty, !Task.isCancelled {
            let remaining = deadline.timeIntervalSince(clock.now())
            guard remaining > 0 else { break }
            await notifier.wait(for: caller.account, atMost: min(remaining, limits.headCheckInterval))
            if try await store.head(of: caller.account) > cursor {
                page = try await self.page(after: cursor, size: size, of: caller.account)
            }
        }
        return page
    }

    private func answer(_ page: PullPage) async throws -> PullPage {
        PullPage(
            entries: page.entries, head: page.head, serverTime: clock.now(), hasMore: page.hasMore,
            generation: try await store.generation(), keyVersion: page.keyVersion)
    }

    private func page(after cursor: Int64, size: Int, of account: SyncAccountID) async throws -> PullPage {
        let bounds = try await store.pullBounds(of: account)
        guard cursor == 0 || cursor >= bounds.horizon else { throw SyncServerError.cursorExpired(horizon: bounds.horizon) }
        let entries = try await store.changes(of: account, after: cursor, limit: size + 1)
        // Read after the entries, so the head is never behind a page.
        let head = try await store.head(of: account)
        return PullPage(
            entries: Array(entries.prefix(size)), head: head, serverTime: clock.now(), hasMore: entries.count > size,
            keyVersion: bounds.keyVersion)
    }
}
