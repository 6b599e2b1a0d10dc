/// Why a text is not a usable otpauth:// Key URI; each case names the part at fault.
public enum KeyURIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text does not start with `otpauth://`.
    case notKeyURI
    /// The type is not totp, hotp or steam.
    case unsupportedType(String)
    /// No `/label` after the type.
    case missingLabel
    /// A `%` not followed by two hex digits, or bytes that are not UTF-8, in the named field.
    case malformedEncoding(field: String)
    /// `digits`, `period` or `counter` is not a whole number.
    case notANumber(field: String, value: String)
    case unsupportedAlgorithm(String)
    /// An HOTP URI without its `counter`.
    case missingCounter
    /// The fields parsed but do not make a valid account.
    case invalid(AccountValidationError)

    /// The URI part the error is about.
    public var field: String {
        switch self {
        case .notKeyURI: "scheme"
        case .unsupportedType: "type"
        case .missingLabel: "label"
        case .malformedEncoding(let field), .notANumber(let field, _): field
        case .unsupportedAlgorithm: "algorithm"
        case .missingCounter: "counter"
        case .invalid(let error): error.field
        }
    }

    public var description: String {
        switch self {
        case .notKeyURI: "not a Key URI: it must start with otpauth://"
        case .unsupportedType(let type): "type: '\(type)' is not supported (use totp, hotp or steam)"
        case .missingLabel: "label: the URI has no issuer:account label"
        case .malformedEncoding(let field): "\(field): malformed percent-encoding"
        case .notANumber(let field, let value): "\(field): '\(value)' is not a whole number"
        case .unsupportedAlgorithm(let name):
            "algorithm: '\(name)' is not supported (use SHA1, SHA256 or SHA512)"
        case .missingCounter: "counter: an hotp URI needs a counter parameter"
        case .invalid(let error): error.description
        }
    }
}
