import Foundation

/// The devices this server instance authenticated lately, by their token's digest: enough to
/// decide that a request's body may be read (an anonymous client cannot make the server hold
/// megabytes), never to grant what the body asks. A request admitted this way checks its token
/// again in its own write (`PushChangesUseCase.execute(_:token:)`), so a revocation still holds
/// at once; a device revoked since is refused after its body is read, not before. Each device is
/// kept for `seconds` after the store last vouched for it, at most `capacity` of them.
public actor RecentDevices {
    /// How long the store's word counts, in seconds.
    public static let defaultSeconds: TimeInterval = 60
    /// How many devices are kept at most (a server's active devices of the last minute).
    public static let defaultCapacity = 10_000

    private let clock: any ServerClock
    private let seconds: TimeInterval
    private let capacity: Int
    private var devices: [SecretDigest: (device: AuthenticatedDevice, until: Date)] = [:]

    public init(clock: any ServerClock, seconds: TimeInterval = defaultSeconds, capacity: Int = defaultCapacity) {
        self.clock = clock
        self.seconds = seconds
        self.capacity = capacity
    }

    /// The device the store vouched for within `seconds`, or nil.
    public func device(for digest: SecretDigest) -> AuthenticatedDevice? {
        guard let kept = devices[digest] else { return nil }
        guard kept.until > clock.now() else {
            devices[digest] = nil
            return nil
        }
        return kept.device
    }

    /// The store vouched for `device` now. When full, the expired are forgotten first, and if
    /// none had, all are (each is asked of the store again once: a burst of new devices costs
    /// what every request cost without this).
    public func vouched(_ device: AuthenticatedDevice, for digest: SecretDigest) {
        let now = clock.now()
        if devices[digest] == nil, devices.count >= capacity {
            devices = devices.filter { $0.value.until > now }
            if devices.count >= capacity { devices = [:] }
        }
        devices[digest] = (device, now.addingTimeInterval(seconds))
    }
}
