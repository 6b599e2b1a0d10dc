/// The pulls waiting for a change now (long-polls), by device and in all. A device may keep
/// `SyncLimits.waitingPullsPerDevice` waiting (one is what a client needs; more is a client
/// that opens them and walks away); past that its pull is refused (429). Past
/// `SyncLimits.waitingPulls` in all, a pull answers at once instead of waiting, so that waiting
/// pulls cannot hold every connection the server has.
public actor WaitingPulls {
    /// What a pull that would wait may do.
    public enum Admission: Equatable, Sendable {
        case wait
        case answerNow
        case refuse
    }

    private var total = 0
    private var byDevice: [DeviceID: Int] = [:]
    private let limits: SyncLimits

    public init(limits: SyncLimits) { self.limits = limits }

    /// Admits a pull of `device` that would wait; a `.wait` must be followed by `leave`.
    public func enter(_ device: DeviceID) -> Admission {
        let mine = byDevice[device, default: 0]
        if mine >= limits.waitingPullsPerDevice { return .refuse }
        if total >= limits.waitingPulls { return .answerNow }
        byDevice[device] = mine + 1
        total += 1
        return .wait
    }

    /// A pull `enter` let wait has ended.
    public func leave(_ device: DeviceID) {
        total -= 1
        let mine = byDevice[device, default: 1] - 1
        byDevice[device] = mine > 0 ? mine : nil
    }

    /// Pulls waiting now.
    public var count: Int { total }
}
