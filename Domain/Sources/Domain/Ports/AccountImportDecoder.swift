import Foundation

/// Port: reads other apps' export files into Domain values. Data implements it (Interop/).
public protocol AccountImportDecoder: Sendable {
    /// Decodes `data` in `format`, or in the format detected from the content when nil.
    /// Throws ImportError for a file it cannot read at all; entries it cannot use are reported.
    func decode(_ data: Data, as format: ImportFormat?, password: String?) throws -> DecodedImport
}

/// Port: writes accounts in another app's format. Data implements it (Interop/).
public protocol AccountExportEncoder: Sendable {
    /// The file for `accounts`, and what the format could not hold (left out, never silently).
    /// Every id, key, salt and nonce it makes comes from `random`: the same source gives the
    /// same bytes.
    func encode(_ accounts: [Account], as format: ExportFormat, password: String?, random: any RandomSource) throws
        -> EncodedExport
}

/// An export file's bytes and what was left out of it.
public struct EncodedExport: Sendable {
    public let data: Data
    public let omitted: [DroppedItem]

    public init(data: Data, omitted: [DroppedItem] = []) {
        self.data = data
        self.omitted = omitted
    }
}
