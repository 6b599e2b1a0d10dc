/// Unlocks the account store, counting the failures in a row so that each retry after repeated
/// failures waits longer.
public protocol UnlockUseCase: Sendable {
    /// Unlocks, or throws `UnlockFailure`: the store's error and how long to wait before the next
    /// try.
    func execute(passphrase: [UInt8]) async throws
}

/// A refused unlock: why (the store's error, e.g. a wrong passphrase), how many failed in a row,
/// and how long the next try must wait (`UnlockThrottle`).
public struct UnlockFailure: Error, CustomStringConvertible {
    public let reason: any Error
    public let failuresInARow: Int
    public let retryAfter: Duration

    public init(reason: any Error, failuresInARow: Int, retryAfter: Duration) {
        self.reason = reason
        self.failuresInARow = failuresInARow
        self.retryAfter = retryAfter
    }

    public var description: String { "\(reason)" }
}

/// The delay after repeated wrong passphrases: none for the first two, then 1 s, 2 s, 4 s…
/// up to 30 s.
public enum UnlockThrottle {
    public static func delay(afterFailures failures: Int) -> Duration {
        guard failures >= 3 else { return .zero }
        return .seconds(min(30, 1 << min(failures - 3, 5)))
    }
}

/// The Unlock use case over the AccountStoreLock port: counts failures in a row (a success
/// starts again from none) and says how long the next try waits.
public actor DefaultUnlockUseCase: UnlockUseCase {
    private let lock: any AccountStoreLock
    private var failuresInARow = 0

    public init(lock: any AccountStoreLock) {
        self.lock = lock
    }

    public func execute(passphrase: [UInt8]) async throws {
        do {
            try await lock.unlock(passphrase: passphrase)
            failuresInARow = 0
        } catch {
            failuresInARow += 1
            throw UnlockFailure(
                reason: error, failuresInARow: failuresInARow,
                retryAfter: UnlockThrottle.delay(afterFailures: failuresInARow))
        }
    }
}
