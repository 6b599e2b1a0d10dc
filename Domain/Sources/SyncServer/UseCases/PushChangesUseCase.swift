/// Stores a device's changes, each only if its entry is still where the device last saw it.
public protocol PushChangesUseCase: Sendable {
    /// One result per change, in the changes' order.
    func execute(_ changes: [EntryChange], for caller: AuthenticatedDevice) async throws -> [PushResult]
}

/// PushChanges over the store: the whole push is checked before anything is written.
public struct DefaultPushChangesUseCase: PushChangesUseCase {
    private let store: any SyncServerStore
    private let clock: any ServerClock
    private let notifier: any ChangeNotifier
    private let limits: SyncLimits

    public init(store: any SyncServerStore, clock: any ServerClock, notifier: any ChangeNotifier, limits: SyncLimits) {
        self.store = store
        self.clock = clock
        self.notifier = notifier
        self.limits = limits
    }

    public func execute(_ changes: [EntryChange], for caller: AuthenticatedDevice) async throws -> [PushResult] {
        try ChangeValidation.check(changes, limits: limits)
        let results = try await store.push(changes, to: caller.account, at: clock.now(), quota: limits.quota)
        // Wakes the account's long-polls (a retried push that changed nothing wakes them too:
        // they re-read the head and go back to waiting).
        if results.contains(where: { if case .applied = $0 { true } else { false } }) {
            await notifier.changed(caller.account)
        }
        return results
    }
}
