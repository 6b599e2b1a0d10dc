import Domain

/// The RandomSource port over the system's CSPRNG (getrandom(2) on Linux).
public struct SecureRandomSource: RandomSource {
    public init() {}

    public func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
