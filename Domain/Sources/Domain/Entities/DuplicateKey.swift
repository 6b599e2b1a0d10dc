/// What makes two accounts the same account: the secret, the kind of moving factor and the
/// parameters that shape a code (TOTP period, algorithm, digits). Names do not count: the same
/// secret under another issuer is still the same account. An HOTP counter is state, not a
/// parameter, so it does not count either.
public struct DuplicateKey: Hashable, Sendable {
    let secret: [UInt8]
    let kind: String
    let period: Int?
    let algorithm: OTPAlgorithm
    let digits: Int

    public init(_ spec: AccountSpec) {
        self.init(secret: spec.secret, kind: spec.kind, algorithm: spec.algorithm, digits: spec.digits)
    }

    public init(_ account: Account) {
        self.init(secret: account.secret, kind: account.kind, algorithm: account.algorithm, digits: account.digits)
    }

    private init(secret: Secret, kind: OTPKind, algorithm: OTPAlgorithm, digits: Int) {
        self.secret = secret.bytes
        self.kind = kind.typeName
        self.period = kind.period
        self.algorithm = algorithm
        self.digits = digits
    }
}

/// Adding an account that is already kept (see DuplicateKey): nothing is added.
public struct DuplicateAccountError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The account already kept.
    public let existing: Account

    public init(existing: Account) {
        self.existing = existing
    }

    public var description: String {
        "already there as \(existing.displayName) (id \(existing.shortID)); nothing was added"
    }
}
