/// Port: the lock on the account store. The vault phases start locked and unlock with a
/// passphrase; DEV needs none. Locking drops every decrypted account and key from memory.
public protocol AccountStoreLock: Sendable {
    /// Whether the store must be unlocked before use.
    var requiresUnlock: Bool { get }
    /// Unlocks with a passphrase; throws the store's error for a wrong one.
    func unlock(passphrase: [UInt8]) async throws
    func lock() async
}

/// The store needs no unlocking (DEV).
public struct AlwaysUnlocked: AccountStoreLock {
    public init() {}
    public var requiresUnlock: Bool { false }
    public func unlock(passphrase: [UInt8]) async throws {}
    public func lock() async {}
}
