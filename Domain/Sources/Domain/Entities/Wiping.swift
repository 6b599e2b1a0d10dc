import Foundation

/// The one way Tokens clears a secret's bytes once it is done with them (a passphrase, a
/// decrypted entry, a key): every byte set to zero in place, an empty buffer left alone.
extension Array where Element == UInt8 {
    public mutating func wipe() {
        for index in indices { self[index] = 0 }
    }
}

extension Data {
    /// Every byte set to zero in place (the count stays).
    public mutating func wipe() {
        resetBytes(in: 0..<count)
    }
}
