import Foundation

/// The server's clock: the only way the server's rules learn the time.
public protocol ServerClock: Sendable {
    func now() -> Date
}

/// SHA-256 of a secret (Data implements it with swift-crypto).
public protocol SecretDigester: Sendable {
    func digest(_ secret: SyncSecret) -> SecretDigest
}

/// Randomness for device ids and tokens (Data: the system's secure generator).
public protocol ServerRandomSource: Sendable {
    func secret() -> SyncSecret
    func uuid() -> UUID
}
