import Foundation

/// Stores a device's changes, each only if its entry is still where the device last saw it.
public protocol PushChangesUseCase: Sendable {
    /// One result per change, in the changes' order.
    func execute(_ changes: [EntryChange], for caller: AuthenticatedDevice) async throws -> [PushResult]
    /// The same for the device of a bearer token, authenticated in the push's own write (as
    /// `AuthenticateDeviceUseCase` would: an unknown token is `unauthorized`, a revoked device's
    /// `deviceRevoked`), so a push costs the store one round trip, not two.
    func execute(_ changes: [EntryChange], token: SyncSecret) async throws -> [PushResult]
}

/// PushChanges over the store: the whole push is checked before anything is written.
public struct DefaultPushChangesUseCase: PushChangesUseCase {
    private let store: any SyncServerStore
    private let digester: any SecretDigester
    private let clock: any ServerClock
    private let notifier: any ChangeNotifier
    private let limits: SyncLimits
    private let activity: DeviceActivity?

    /// A push that checks its own token notes its device as seen in `activity`, when given.
    public init(
        store: any SyncServerStore, digester: any SecretDigester, clock: any ServerClock, notifier: any ChangeNotifier,
        limits: SyncLimits, activity: DeviceActivity? = nil
    ) {
        self.store = store
        self.digester = digester
        self.clock = clock
        self.notifier = notifier
        self.limits = limits
        self.activity = activity
    }

    public func execute(_ changes: [EntryChange], for caller: AuthenticatedDevice) async throws -> [PushResult] {
        try ChangeValidation.check(changes, limits: limits)
        let results = try await store.push(changes, to: caller.account, at: clock.now(), quota: limits.quota)
        await notify(caller.account, of: results)
        return results
    }

    public func execute(_ changes: [EntryChange], token: SyncSecret) async throws -> [PushResult] {
        try ChangeValidation.check(changes, limits: limits)
        guard let push = try await store.push(changes, forToken: digester.digest(token), at: clock.now(), quota: limits.quota) else {
            throw SyncServerError.unauthorized
        }
        guard let results = push.results else { throw SyncServerError.deviceRevoked }
        let caller = AuthenticatedDevice(account: push.device.account, device: push.device.id)
        await activity?.saw(caller)
        await notify(caller.account, of: results)
        return results
    }

    /// Wakes the account's long-polls (a retried push that changed nothing wakes them too: they
    /// re-read the head and go back to waiting).
    private func notify(_ account: SyncAccountID, of results: [PushResult]) async {
        if results.contains(where: { if case .applied = $0 { true } else { false } }) { await notifier.changed(account) }
    }
}
