import Domain
import Foundation

/// A fake decoder that hands back what the test sends, and records the password it was given.
public struct TestImportDecoder: AccountImportDecoder {
    private let result: Result<DecodedImport, ImportError>

    public init(_ decoded: DecodedImport) { result = .success(decoded) }
    public init(failing error: ImportError) { result = .failure(error) }

    public func decode(_ data: Data, as format: ImportFormat?, password: String?) throws -> DecodedImport {
        try result.get()
    }
}
