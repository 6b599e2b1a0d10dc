/// Account fields as a person types them in a form, before validation.
public struct AccountDraft: Hashable, Sendable {
    /// The kinds a form offers.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case totp, hotp, steam
    }

    public var issuer: String
    public var name: String
    public var secret: String
    public var kind: Kind
    public var algorithm: OTPAlgorithm
    public var digits: Int
    public var period: Int
    public var counter: UInt64

    public init(
        issuer: String = "",
        name: String = "",
        secret: String = "",
        kind: Kind = .totp,
        algorithm: OTPAlgorithm = .sha1,
        digits: Int = 6,
        period: Int = OTPKind.defaultPeriod,
        counter: UInt64 = 0
    ) {
        self.issuer = issuer
        self.name = name
        self.secret = secret
        self.kind = kind
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
        self.counter = counter
    }

    /// Validates the fields into an account's content.
    public func validated() throws(AccountValidationError) -> AccountSpec {
        guard !secret.trimmingSpaces.isEmpty else { throw .missingSecret }
        let decoded: Secret
        do { decoded = try Secret(base32: secret) } catch { throw .invalidSecret(error) }
        let otpKind: OTPKind =
            switch kind {
            case .totp: .totp(period: period)
            case .hotp: .hotp(counter: counter)
            case .steam: .steam
            }
        return try AccountSpec(
            issuer: issuer, name: name, secret: decoded, kind: otpKind, algorithm: algorithm,
            digits: digits)
    }
}
