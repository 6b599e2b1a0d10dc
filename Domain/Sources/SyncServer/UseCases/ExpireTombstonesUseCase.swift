/// Forgets deletions older than the tombstone lifetime (run periodically by the server).
public protocol ExpireTombstonesUseCase: Sendable {
    /// How many tombstones went.
    func execute() async throws -> Int
}

/// ExpireTombstones over the store.
public struct DefaultExpireTombstonesUseCase: ExpireTombstonesUseCase {
    private let store: any SyncServerStore
    private let clock: any ServerClock
    private let limits: SyncLimits

    public init(store: any SyncServerStore, clock: any ServerClock, limits: SyncLimits) {
        self.store = store
        self.clock = clock
        self.limits = limits
    }

    public func execute() async throws -> Int {
        try await store.purgeTombstones(changedBefore: clock.now().addingTimeInterval(-Double(limits.tombstoneLifetime)))
    }
}
