import Domain
import Synchronization

/// A RandomSource that returns a predictable sequence: call n fills every byte with n (or with
/// `start` + n).
public final class CountingRandomSource: RandomSource {
    private let calls: Mutex<UInt8>

    public init(start: UInt8 = 0) { calls = Mutex(start) }

    public func bytes(count: Int) -> [UInt8] {
        let call = calls.withLock { value -> UInt8 in
            value &+= 1
            return value
        }
        return Array(repeating: call, count: count)
    }
}
