import Domain
import Foundation
import Synchronization

/// A fake decoder that hands back what the test sends, and records what it was asked: the
/// bytes' size, the format and the password (`requests`).
public final class TestImportDecoder: AccountImportDecoder {
    /// One call to `decode`.
    public struct Request: Equatable, Sendable {
        public let byteCount: Int
        public let format: ImportFormat?
        public let password: String?

        public init(byteCount: Int, format: ImportFormat?, password: String?) {
            (self.byteCount, self.format, self.password) = (byteCount, format, password)
        }
    }

    private let result: Result<DecodedImport, ImportError>
    private let recorded = Mutex<[Request]>([])

    public init(_ decoded: DecodedImport) { result = .success(decoded) }
    public init(failing error: ImportError) { result = .failure(error) }

    /// Every call so far, in order.
    public var requests: [Request] { recorded.withLock { $0 } }

    public func decode(_ data: Data, as format: ImportFormat?, password: String?) throws -> DecodedImport {
        recorded.withLock { $0.append(Request(byteCount: data.count, format: format, password: password)) }
        return try result.get()
    }
}
