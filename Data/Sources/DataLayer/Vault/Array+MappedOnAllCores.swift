import Foundation
import Synchronization

extension Array where Element: Sendable {
    /// `map(transform)`, on as many threads as the machine has cores when there are at least
    /// `perPart` elements for each (the vault's 10 000 entries: decrypting them, hashing their
    /// rows); the first element that fails gives the error. The elements go in up to four parts
    /// per core, taken by whichever thread is free: a thread that starts late, or a core that
    /// is busy elsewhere, leaves less of the work waiting on it.
    func mappedOnAllCores<T: Sendable>(perPart: Int = 1_000, _ transform: @Sendable (Element) throws -> T) throws -> [T] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard Swift.min(cores, count / Swift.max(1, perPart)) > 1 else { return try map(transform) }
        let parts = Swift.min(cores * 4, count / Swift.max(1, perPart / 4))
        let results = Mutex<[Result<[T], any Error>?]>([Result<[T], any Error>?](repeating: nil, count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (count * part / parts)..<(count * (part + 1) / parts)
            let mapped = Result { try self[range].map(transform) }
            results.withLock { $0[part] = mapped }
        }
        return try results.withLock { $0 }.flatMap { result -> [T] in
            guard let result else { preconditionFailure("concurrentPerform ran every part") }
            return try result.get()
        }
    }
}
