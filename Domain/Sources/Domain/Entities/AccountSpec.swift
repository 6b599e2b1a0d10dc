/// The validated content of an account, without identity or bookkeeping: what a Key URI carries.
public struct AccountSpec: Hashable, Sendable {
    /// Digits a TOTP or HOTP account may have.
    public static let allowedDigits = 6...10
    /// Seconds a TOTP period may last: a day at most.
    public static let allowedPeriods = 1...86_400
    /// The longest secret, in bytes (an HMAC-SHA512 key needs 64; real ones have 10 to 64).
    public static let maximumSecretBytes = 512
    /// Steam Guard codes always have five characters.
    public static let steamDigits = 5

    public let issuer: String
    public let name: String
    public let secret: Secret
    public let kind: OTPKind
    public let algorithm: OTPAlgorithm
    public let digits: Int

    /// Validates the parts; Steam accounts always get SHA1 and five characters.
    public init(
        issuer: String,
        name: String,
        secret: Secret,
        kind: OTPKind,
        algorithm: OTPAlgorithm = .sha1,
        digits: Int = 6
    ) throws(AccountValidationError) {
        let issuer = issuer.trimmingSpaces
        let name = name.trimmingSpaces
        guard !issuer.isEmpty || !name.isEmpty else { throw .missingName }
        if AccountText.containsForbidden(issuer) { throw .forbiddenCharacters(.issuer) }
        if AccountText.containsForbidden(name) { throw .forbiddenCharacters(.account) }
        guard !secret.bytes.isEmpty else { throw .missingSecret }
        guard secret.bytes.count <= Self.maximumSecretBytes else { throw .secretTooLong(limit: Self.maximumSecretBytes) }
        for (field, text) in [(AccountTextField.issuer, issuer), (.account, name)] where text.count > AccountText.maximumNameLength {
            throw .tooLong(field, limit: AccountText.maximumNameLength)
        }
        if case .totp(let period) = kind, !Self.allowedPeriods.contains(period) { throw .invalidPeriod(period) }
        if kind != .steam, !Self.allowedDigits.contains(digits) { throw .invalidDigits(digits) }
        self.issuer = issuer
        self.name = name
        self.secret = secret
        self.kind = kind
        self.algorithm = kind == .steam ? .sha1 : algorithm
        self.digits = kind == .steam ? Self.steamDigits : digits
    }
}

extension Account {
    /// The account's validated content.
    public var spec: AccountSpec {
        get throws(AccountValidationError) {
            try AccountSpec(
                issuer: issuer, name: name, secret: secret, kind: kind, algorithm: algorithm,
                digits: digits)
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first?.isWhitespace == true { scalars.removeFirst() }
        while scalars.last?.isWhitespace == true { scalars.removeLast() }
        return String(scalars)
    }
}
