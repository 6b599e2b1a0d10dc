/// Why account fields do not make a usable account; each case names the field at fault.
public enum AccountValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    case missingName
    case missingSecret
    case invalidSecret(Base32Error)
    case invalidDigits(Int)
    case invalidPeriod(Int)
    /// An HOTP counter at its largest value: moving on would wrap to 0 and repeat old codes.
    case counterExhausted
    /// A control character or a bidi override in a text field (see AccountText).
    case forbiddenCharacters(AccountTextField)
    /// A text field longer than its limit, in characters (see AccountText).
    case tooLong(AccountTextField, limit: Int)
    case tooManyGroups(limit: Int)
    /// A secret longer than any HMAC key needs.
    case secretTooLong(limit: Int)

    /// The field the error is about, as forms and Key URIs name it.
    public var field: String {
        switch self {
        case .missingName: "account"
        case .missingSecret, .invalidSecret: "secret"
        case .invalidDigits: "digits"
        case .invalidPeriod: "period"
        case .counterExhausted: "counter"
        case .forbiddenCharacters(let field), .tooLong(let field, _): field.rawValue
        case .tooManyGroups: "group"
        case .secretTooLong: "secret"
        }
    }

    public var description: String {
        switch self {
        case .missingName: "account: an issuer or an account name is required"
        case .missingSecret: "secret: a secret is required"
        case .invalidSecret(let error): "secret: \(error)"
        case .invalidDigits(let digits):
            "digits: \(digits) is not allowed (use \(AccountSpec.allowedDigits.lowerBound) to \(AccountSpec.allowedDigits.upperBound))"
        case .invalidPeriod(let period):
            "period: \(period) is not allowed (use \(AccountSpec.allowedPeriods.lowerBound) to \(AccountSpec.allowedPeriods.upperBound) seconds)"
        case .counterExhausted: "counter: the HOTP counter is at its maximum and cannot move on (enrol the account again)"
        case .forbiddenCharacters(let field):
            "\(field.rawValue): control characters and bidirectional overrides are not allowed"
        case .tooLong(let field, let limit): "\(field.rawValue): longer than \(limit) characters"
        case .tooManyGroups(let limit): "group: more than \(limit) groups"
        case .secretTooLong(let limit): "secret: longer than \(limit) bytes"
        }
    }
}
