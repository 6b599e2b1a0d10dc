import Crypto
import Foundation
import SyncServer

/// SHA-256 of a secret, with swift-crypto.
public struct SHA256SecretDigester: SecretDigester {
    public init() {}

    public func digest(_ secret: SyncSecret) -> SecretDigest {
        SecretDigest(bytes: Array(SHA256.hash(data: secret.bytes)))
    }
}

/// The system's secure generator, for device ids and tokens.
public struct SystemServerRandom: ServerRandomSource {
    public init() {}

    public func secret() -> SyncSecret {
        var generator = SystemRandomNumberGenerator()
        return SyncSecret(bytes: (0..<SyncSecret.byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })!
    }

    public func uuid() -> UUID { UUID() }
}

/// The system's clock, for the server.
public struct SystemServerClock: ServerClock {
    public init() {}
    public func now() -> Date { Date() }
}
