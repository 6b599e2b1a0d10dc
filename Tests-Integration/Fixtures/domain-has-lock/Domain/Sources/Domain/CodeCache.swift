// Fixture: a cache with a lock, a MAC read through an unsafe pointer, and reads of the environment,
// a file and the network in Domain break rule 13.
// Only code counts: NSLock in a comment is fine.
import Foundation

final class CodeCache: @unchecked Sendable {
    private let lock = NSLock()
    func truncate(_ mac: UnsafeRawBufferPointer) -> UInt8 { mac[0] }
    func setting() -> String? { ProcessInfo.processInfo.environment["TOKENS_X"] }
    func saved() -> Data? { FileManager.default.contents(atPath: "/tmp/codes") }
    func fetch() { _ = URLSession.shared }
}
