import Foundation

/// A hybrid logical clock reading: wall-clock milliseconds, a counter for changes within the same
/// millisecond (or while the wall clock lags a reading already seen), and the device that made
/// it, which breaks ties. Readings order every change of every device the same way on every
/// machine, and a machine whose clock runs slow still orders its change after one it has seen.
public struct HybridTimestamp: Comparable, Hashable, Sendable {
    public let milliseconds: Int64
    public let counter: UInt32
    public let device: UUID

    public init(milliseconds: Int64, counter: UInt32 = 0, device: UUID) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.device = device
    }

    /// The reading for a change this device makes now (`now` from its wall clock, in ms).
    public func next(now: Int64) -> HybridTimestamp {
        now > milliseconds
            ? HybridTimestamp(milliseconds: now, device: device)
            : HybridTimestamp(milliseconds: milliseconds, counter: counter &+ 1, device: device)
    }

    /// This device's clock after it has seen `remote` (so its next change orders after it).
    public func receiving(_ remote: HybridTimestamp, now: Int64) -> HybridTimestamp {
        let latest = max(milliseconds, remote.milliseconds, now)
        let counter: UInt32 =
            switch (latest == milliseconds, latest == remote.milliseconds) {
            case (true, true): max(self.counter, remote.counter) &+ 1
            case (true, false): self.counter &+ 1
            case (false, true): remote.counter &+ 1
            case (false, false): 0
            }
        return HybridTimestamp(milliseconds: latest, counter: counter, device: device)
    }

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        if lhs.milliseconds != rhs.milliseconds { return lhs.milliseconds < rhs.milliseconds }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.device.ordersBefore(rhs.device)
    }
}

/// A value with the reading of its last change.
public struct Stamped<Value: Hashable & Sendable>: Hashable, Sendable {
    public var value: Value
    public var changedAt: HybridTimestamp

    public init(_ value: Value, changedAt: HybridTimestamp) {
        self.value = value
        self.changedAt = changedAt
    }
}
