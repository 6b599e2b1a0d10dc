import Foundation

/// A page of the account's changes after a cursor, waiting for one when asked (a long-poll).
public protocol PullChangesUseCase: Sendable {
    /// `limit` nil means the largest page. `waiting` seconds (0 to `SyncLimits.longPollLimit`):
    /// when nothing follows the cursor, wait up to that long (or the server's own, shorter limit)
    /// for a change before answering (an empty page if none came).
    func execute(after cursor: Int64, limit: Int?, waiting: Int, for caller: AuthenticatedDevice) async throws -> PullPage
    /// The same for the device of a bearer token, authenticated in the same read as the first
    /// page (as `AuthenticateDeviceUseCase` would: an unknown token is `unauthorized`, a revoked
    /// device's `deviceRevoked`), so a pull costs the store one read, not two.
    func execute(after cursor: Int64, limit: Int?, waiting: Int, token: SyncSecret) async throws -> PullPage
}

/// PullChanges over the store. A cursor of 0 is a full pull; a cursor older than the tombstone
/// horizon is refused (the client must resync from 0 and merge).
public struct DefaultPullChangesUseCase: PullChangesUseCase {
    private let store: any SyncServerStore
    private let digester: any SecretDigester
    private let clock: any ServerClock
    private let notifier: any ChangeNotifier
    private let limits: SyncLimits
    private let waiting: WaitingPulls
    private let activity: DeviceActivity?

    /// `waiting` counts the pulls that wait; one per server (every pull use case of it shares it).
    /// A pull that checks its own token notes its device as seen in `activity`, when given.
    public init(
        store: any SyncServerStore, digester: any SecretDigester, clock: any ServerClock, notifier: any ChangeNotifier,
        limits: SyncLimits, waiting: WaitingPulls? = nil, activity: DeviceActivity? = nil
    ) {
        self.store = store
        self.digester = digester
        self.clock = clock
        self.notifier = notifier
        self.limits = limits
        self.waiting = waiting ?? WaitingPulls(limits: limits)
        self.activity = activity
    }

    public func execute(after cursor: Int64, limit: Int?, waiting: Int, for caller: AuthenticatedDevice) async throws -> PullPage {
        let size = try checked(limit, after: cursor, waiting: waiting)
        let deadline = clock.now().addingTimeInterval(Double(min(waiting, limits.longPollSeconds)))
        let page = try await self.page(after: cursor, size: size, of: caller.account)
        return try await answer(page, after: cursor, size: size, waiting: waiting, until: deadline, for: caller)
    }

    public func execute(after cursor: Int64, limit: Int?, waiting: Int, token: SyncSecret) async throws -> PullPage {
        let size = try checked(limit, after: cursor, waiting: waiting)
        let deadline = clock.now().addingTimeInterval(Double(min(waiting, limits.longPollSeconds)))
        guard let read = try await store.page(forToken: digester.digest(token), after: cursor, limit: size + 1) else {
            throw SyncServerError.unauthorized
        }
        guard !read.device.isRevoked, let stored = read.page else { throw SyncServerError.deviceRevoked }
        let caller = AuthenticatedDevice(account: read.device.account, device: read.device.id)
        await activity?.saw(caller)
        let page = try self.page(stored, after: cursor, size: size)
        return try await answer(page, after: cursor, size: size, waiting: waiting, until: deadline, for: caller)
    }

    /// The page's size, once the request's bounds are checked.
    private func checked(_ limit: Int?, after cursor: Int64, waiting: Int) throws -> Int {
        let size = try limits.pageSize(limit, after: cursor)
        guard (0...SyncLimits.longPollLimit).contains(waiting) else {
            throw SyncServerError.invalid("a pull waits 0 to \(SyncLimits.longPollLimit) seconds")
        }
        return size
    }

    /// The first page if it has entries or the pull does not wait; else the page a change brings
    /// before the deadline (or the empty one).
    private func answer(
        _ first: PullPage, after cursor: Int64, size: Int, waiting: Int, until deadline: Date, for caller: AuthenticatedDevice
    ) async throws -> PullPage {
        var page = first
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
        try page(try await store.page(of: account, after: cursor, limit: size + 1), after: cursor, size: size)
    }

    /// A page of `size` from what the store read (up to one more), unless the cursor is below the horizon.
    private func page(_ stored: StoredPage, after cursor: Int64, size: Int) throws -> PullPage {
        let horizon = stored.bounds.horizon
        guard cursor == 0 || cursor >= horizon else { throw SyncServerError.cursorExpired(horizon: horizon) }
        return PullPage(
            entries: Array(stored.entries.prefix(size)), head: stored.head, serverTime: clock.now(),
            hasMore: stored.entries.count > size, keyVersion: stored.bounds.keyVersion)
    }
}
