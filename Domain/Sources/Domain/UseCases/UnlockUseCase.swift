/// Unlocks the account store, counting failures so callers can make each retry wait longer.
public protocol UnlockUseCase: Sendable {
    /// Unlocks, or throws the store's error.
    func execute(passphrase: [UInt8]) async throws
}

/// The delay after repeated wrong passphrases: none for the first two, then 1 s, 2 s, 4 s…
/// up to 30 s.
public enum UnlockThrottle {
    public static func delay(afterFailures failures: Int) -> Duration {
        guard failures >= 3 else { return .zero }
        return .seconds(min(30, 1 << min(failures - 3, 5)))
    }
}

/// The Unlock use case over the AccountStoreLock port.
public struct DefaultUnlockUseCase: UnlockUseCase {
    private let lock: any AccountStoreLock

    public init(lock: any AccountStoreLock) {
        self.lock = lock
    }

    public func execute(passphrase: [UInt8]) async throws {
        try await lock.unlock(passphrase: passphrase)
    }
}
