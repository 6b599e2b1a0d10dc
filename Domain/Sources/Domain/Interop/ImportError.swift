/// Why a file could not be imported at all (entries it merely could not use are reported, not thrown).
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownFormat
    /// A picture (of a QR code, most likely): Tokens reads the text a QR code holds, not images.
    case image(kind: String)
    /// A file of a known kind that is no export: a KeePass database, an archive, a PDF.
    case notAnExport(kind: String)
    case passwordRequired(ImportFormat)
    case wrongPassword(ImportFormat)
    case malformed(ImportFormat, String)
    case unsupported(ImportFormat, String)
    /// More entries than one import takes.
    case tooManyEntries(Int, limit: Int)

    public var description: String {
        switch self {
        case .unknownFormat:
            "cannot tell the file's format: it is none of the exports Tokens reads (\(Self.formats))"
        case .image(let kind):
            "this looks like an image (\(kind)); Tokens reads the text a QR code holds, not pictures"
        case .notAnExport(let kind):
            "this looks like \(kind), not an export Tokens reads (\(Self.formats))"
        case .passwordRequired(let format):
            "the \(format.displayName) is encrypted and no password was given"
        case .wrongPassword(let format): "wrong password for the \(format.displayName)"
        case .malformed(let format, let detail): "not a valid \(format.displayName): \(detail)"
        case .unsupported(let format, let detail): "unsupported \(format.displayName): \(detail)"
        case .tooManyEntries(let count, let limit): "the file holds \(count) accounts; one import takes at most \(limit)"
        }
    }

    /// Every format Tokens reads.
    private static var formats: String { ImportFormat.allCases.map(\.rawValue).joined(separator: ", ") }
}
