/// Why a file could not be imported at all (entries it merely could not use are reported, not thrown).
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownFormat
    case passwordRequired(ImportFormat)
    case wrongPassword(ImportFormat)
    case malformed(ImportFormat, String)
    case unsupported(ImportFormat, String)
    /// More entries than one import takes.
    case tooManyEntries(Int, limit: Int)

    public var description: String {
        switch self {
        case .unknownFormat:
            "cannot tell the file's format; name it with --format (\(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .passwordRequired(let format): "the \(format.displayName) is encrypted: give its password with --password-file"
        case .wrongPassword(let format): "wrong password for the \(format.displayName)"
        case .malformed(let format, let detail): "not a valid \(format.displayName): \(detail)"
        case .unsupported(let format, let detail): "unsupported \(format.displayName): \(detail)"
        case .tooManyEntries(let count, let limit): "the file holds \(count) accounts; one import takes at most \(limit)"
        }
    }
}
