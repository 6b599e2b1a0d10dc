import Foundation

/// When each device was last seen by this server instance: noted in memory at each authenticated
/// request (no write per request), and handed to the store in one batch by the housekeeping
/// (`take`, then `SyncServerStore.recordActivity`), so that `tokens-server admin devices` can say
/// when a machine last synced. Only the latest time per device is kept.
public actor DeviceActivity {
    private var seen: [DeviceID: DeviceSeen] = [:]
    private let clock: any ServerClock

    public init(clock: any ServerClock) { self.clock = clock }

    /// `caller` made a request now.
    public func saw(_ caller: AuthenticatedDevice) {
        seen[caller.device] = DeviceSeen(account: caller.account, device: caller.device, at: clock.now())
    }

    /// What was seen since the last call, oldest device first; forgotten here.
    public func take() -> [DeviceSeen] {
        defer { seen = [:] }
        return seen.values.sorted { $0.device.uuid.uuidString < $1.device.uuid.uuidString }
    }

    /// Puts back what a failed write could not keep (a later sighting wins).
    public func putBack(_ sightings: [DeviceSeen]) {
        for sighting in sightings where (seen[sighting.device]?.at ?? .distantPast) < sighting.at { seen[sighting.device] = sighting }
    }
}

/// A device seen at a time (`DeviceActivity`).
public struct DeviceSeen: Equatable, Sendable {
    public let account: SyncAccountID
    public let device: DeviceID
    public let at: Date

    public init(account: SyncAccountID, device: DeviceID, at: Date) {
        self.account = account
        self.device = device
        self.at = at
    }
}
