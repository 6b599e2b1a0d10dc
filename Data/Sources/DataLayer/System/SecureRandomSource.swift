import Domain

/// The RandomSource port over the system's CSPRNG (getrandom(2) on Linux).
public struct SecureRandomSource: RandomSource {
    public init() {}

    /// Eight bytes per draw: one system call for each eight, not each byte (a 10 000-account
    /// import spent a tenth of its time making ids byte by byte).
    public func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
