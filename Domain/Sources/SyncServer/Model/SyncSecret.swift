/// 256 random bits the server must never keep: an account's auth key or a device's bearer
/// token. Only its digest is stored; its description never shows the bytes.
public struct SyncSecret: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The only length accepted.
    public static let byteCount = 32

    public let bytes: [UInt8]

    /// Nil unless exactly 32 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    public var description: String { "SyncSecret(redacted)" }
    public var debugDescription: String { description }
}

/// The SHA-256 of a `SyncSecret`: what the server stores and compares. Secrets of 256 random
/// bits need no slow hash: a leaked digest leaves nothing to guess.
public struct SecretDigest: Hashable, Sendable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Compares in time independent of where the bytes differ.
    public func matches(_ other: SecretDigest) -> Bool {
        guard bytes.count == other.bytes.count else { return false }
        var difference: UInt8 = 0
        for index in bytes.indices { difference |= bytes[index] ^ other.bytes[index] }
        return difference == 0
    }
}
