import SyncServer

/// The change notifier of one server instance: a push wakes this instance's long-polls of the
/// account at once. (Other instances' pushes are seen by the waiters' head checks.)
public actor LocalChangeNotifier: ChangeNotifier {
    /// A waiter from the moment it asks until it is answered: `pending` before its continuation is
    /// stored (it may already be woken then), `waiting` after.
    private enum Waiter {
        case pending(woken: Bool)
        case waiting(CheckedContinuation<Void, Never>)
    }

    private var waiters: [SyncAccountID: [UInt64: Waiter]] = [:]
    private var nextID: UInt64 = 0

    public init() {}

    /// How many requests are waiting (for tests and metrics).
    public var waiting: Int { waiters.values.reduce(0) { $0 + $1.count } }

    public func changed(_ account: SyncAccountID) {
        for id in waiters[account]?.keys.map({ $0 }) ?? [] { wake(id, of: account) }
    }

    public func wait(for account: SyncAccountID, atMost seconds: Double) async {
        guard seconds > 0, !Task.isCancelled else { return }
        let id = nextID
        nextID += 1
        waiters[account, default: [:]][id] = .pending(woken: false)
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(seconds))
            await self?.wake(id, of: account)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                self.park(id, of: account, continuation)
            }
        } onCancel: {
            Task { await self.wake(id, of: account) }
        }
        timer.cancel()
    }

    private func park(_ id: UInt64, of account: SyncAccountID, _ continuation: CheckedContinuation<Void, Never>) {
        guard case .pending(let woken) = waiters[account]?[id], !woken else {
            forget(id, of: account)
            return continuation.resume()
        }
        waiters[account]?[id] = .waiting(continuation)
    }

    private func wake(_ id: UInt64, of account: SyncAccountID) {
        switch waiters[account]?[id] {
        case .pending: waiters[account]?[id] = .pending(woken: true)
        case .waiting(let continuation):
            forget(id, of: account)
            continuation.resume()
        case nil: break
        }
    }

    private func forget(_ id: UInt64, of account: SyncAccountID) {
        waiters[account]?[id] = nil
        if waiters[account]?.isEmpty == true { waiters[account] = nil }
    }
}
