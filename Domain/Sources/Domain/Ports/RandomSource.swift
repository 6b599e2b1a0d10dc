import Foundation

/// Port: randomness. Domain never calls a random generator itself.
public protocol RandomSource: Sendable {
    /// Returns `count` bytes from a cryptographically secure generator.
    func bytes(count: Int) -> [UInt8]
}

extension RandomSource {
    /// A random (version 4) UUID built from this source's bytes.
    public func uuid() -> UUID {
        var bytes = self.bytes(count: 16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
