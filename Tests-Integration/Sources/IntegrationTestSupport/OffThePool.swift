import Foundation

/// Runs blocking work (a process started and waited for, a database created) on a thread of its
/// own, not on the cooperative pool: held there, it would keep every other suite's tasks (and
/// their HTTP requests' bodies) waiting on a 2-core machine, and their deadlines would pass.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
