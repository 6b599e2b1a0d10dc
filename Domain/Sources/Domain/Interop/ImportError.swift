/// Why a file could not be imported at all (entries it merely could not use are reported, not thrown).
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownFormat
    /// A picture of a kind Tokens does not decode (GIF, WebP): it reads QR codes in PNG and JPEG.
    case image(kind: String)
    /// A PNG or JPEG picture that could not be read (`reason` says why).
    case picture(reason: String)
    /// A PNG or JPEG picture with no QR code Tokens could read, or none holding an export.
    case noCodeInPicture
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
            "this looks like an image (\(kind)); Tokens reads QR codes in PNG and JPEG pictures only"
        case .picture(let reason): "cannot read the picture: \(reason)"
        case .noCodeInPicture:
            "no QR code holding otpauth:// or otpauth-migration:// URIs was found in the picture (a sharper or larger capture of the code may read)"
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
