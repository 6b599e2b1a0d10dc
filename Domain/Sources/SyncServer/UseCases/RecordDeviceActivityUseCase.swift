import Foundation

/// Writes what `DeviceActivity` noted to the store; the number of devices written. What a
/// failed write held is kept for the next time.
public struct RecordDeviceActivityUseCase: Sendable {
    private let activity: DeviceActivity
    private let store: any SyncServerStore

    public init(activity: DeviceActivity, store: any SyncServerStore) {
        self.activity = activity
        self.store = store
    }

    public func execute() async throws -> Int {
        let sightings = await activity.take()
        guard !sightings.isEmpty else { return 0 }
        do {
            try await store.recordActivity(sightings)
        } catch {
            await activity.putBack(sightings)
            throw error
        }
        return sightings.count
    }
}
