// Fixture: a cache with a lock and a MAC read through an unsafe pointer in Domain break rule 13.
// Only code counts: NSLock in a comment is fine.
import Foundation

final class CodeCache: @unchecked Sendable {
    private let lock = NSLock()
    func truncate(_ mac: UnsafeRawBufferPointer) -> UInt8 { mac[0] }
}
