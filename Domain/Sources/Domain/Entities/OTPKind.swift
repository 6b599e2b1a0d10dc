/// How an account's moving factor advances: time steps, an event counter, or Steam's time steps.
public enum OTPKind: Hashable, Sendable {
    /// RFC 6238: a new code every `period` seconds.
    case totp(period: Int)
    /// RFC 4226: a new code each time the counter advances.
    case hotp(counter: UInt64)
    /// Steam Guard: TOTP with a 30 s period and five characters from Steam's alphabet.
    case steam

    /// The standard TOTP period, also Steam's.
    public static let defaultPeriod = 30

    /// The time step in seconds, or nil for counter-based accounts.
    public var period: Int? {
        switch self {
        case .totp(let period): period
        case .steam: Self.defaultPeriod
        case .hotp: nil
        }
    }

    /// An HOTP kind with its counter moved on by one; nil for time-based kinds. A counter at its
    /// largest value is an error: wrapping to 0 would issue old codes again.
    public func advancingCounter() throws(AccountValidationError) -> OTPKind? {
        guard case .hotp(let counter) = self else { return nil }
        guard counter < UInt64.max else { throw .counterExhausted }
        return .hotp(counter: counter + 1)
    }

    /// The lower-case name used in Key URIs and listings.
    public var typeName: String {
        switch self {
        case .totp: "totp"
        case .hotp: "hotp"
        case .steam: "steam"
        }
    }
}
