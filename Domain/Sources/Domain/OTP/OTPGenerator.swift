import Foundation

/// The OTP engine: HOTP (RFC 4226), TOTP (RFC 6238) and Steam Guard codes over an HMAC port.
public struct OTPGenerator: Sendable {
    /// Steam Guard's 26-character alphabet.
    public static let steamAlphabet = Array("23456789BCDFGHJKMNPQRTVWXY")

    private let hmac: any HMACProvider

    public init(hmac: any HMACProvider) {
        self.hmac = hmac
    }

    /// RFC 4226 §5.3 dynamic truncation: the 31-bit value chosen by the last nibble of the HMAC.
    public static func truncate(_ mac: [UInt8]) -> UInt32 {
        truncate(MACValue(mac))
    }

    /// RFC 4226 §5.3 dynamic truncation of a MAC of at least 20 bytes.
    public static func truncate(_ mac: MACValue) -> UInt32 {
        let offset = Int(mac[mac.count - 1] & 0x0F)
        return (UInt32(mac[offset]) & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
            | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
    }

    /// Formats a truncated value as `digits` decimal digits (1 to 10), zero-padded: the value
    /// modulo 10^digits (RFC 4226 §5.3). A code this short is a small String, held inline.
    public static func decimal(_ value: UInt32, digits: Int) -> String {
        let digits = min(max(digits, 1), 10)
        let number = String(digits == 10 ? value : value % powersOfTen[digits])
        let missing = digits - number.utf8.count
        return missing == 0 ? number : zeroPadding[missing] + number
    }

    private static let powersOfTen: [UInt32] = (0..<10).map { (0..<$0).reduce(1) { power, _ in power * 10 } }
    private static let zeroPadding = (0...10).map { String(repeating: "0", count: $0) }

    /// Formats a truncated value as Steam's five characters: base 26 over `steamAlphabet`, least
    /// significant first.
    public static func steam(_ value: UInt32) -> String {
        var rest = value
        var text = ""
        for _ in 0..<AccountSpec.steamDigits {
            text.append(steamAlphabet[Int(rest % UInt32(steamAlphabet.count))])
            rest /= UInt32(steamAlphabet.count)
        }
        return text
    }

    /// The RFC 6238 time step of a moment: floor(unix time / period), never negative.
    public static func timeStep(at date: Date, period: Int) -> UInt64 {
        wholeSeconds(date) / UInt64(max(1, period))
    }

    /// Seconds until the time step of `date` ends: from `period` (the step just began) down to 1.
    public static func secondsRemaining(at date: Date, period: Int) -> Int {
        let period = max(1, period)
        return period - Int(wholeSeconds(date) % UInt64(period))
    }

    /// Whole seconds since 1970, 0 before it and at most UInt64.max.
    private static func wholeSeconds(_ date: Date) -> UInt64 {
        let seconds = date.timeIntervalSince1970
        guard seconds > 0 else { return 0 }
        return seconds < 1.8e19 ? UInt64(seconds) : UInt64.max
    }

    /// The truncated HMAC of a 64-bit big-endian counter.
    public func truncatedValue(secret: Secret, counter: UInt64, algorithm: OTPAlgorithm) -> UInt32 {
        Self.truncate(hmac.counterMAC(key: secret.bytes, algorithm: algorithm).authenticationCode(forCounter: counter))
    }

    /// The code of an account for a counter value (the time step for time-based kinds).
    public func code(for account: Account, counter: UInt64) -> String {
        prepared(for: account).code(counter: counter)
    }

    /// What to show for `account` at `date`: a time-based account's codes for the time step of
    /// `date` and the next; a counter-based account's code is made only when asked for.
    public func codes(for account: Account, at date: Date) -> GeneratedCode {
        guard let period = account.kind.period else { return GeneratedCode(waitingForRequest: account) }
        let otp = prepared(for: account)
        let step = Self.timeStep(at: date, period: period)
        return GeneratedCode(account: account, at: date, code: otp.code(counter: step), nextCode: otp.code(counter: step &+ 1))
    }

    /// The code of an account that lives in no store (a Key URI's) at `date`: the time step's
    /// for a time-based kind; for HOTP, its counter's as given (nothing stored, nothing advanced).
    public func code(for spec: AccountSpec, at date: Date) -> String {
        let otp = prepared(secret: spec.secret, kind: spec.kind, algorithm: spec.algorithm, digits: spec.digits)
        let counter: UInt64 =
            if case .hotp(let counter) = spec.kind {
                counter
            } else {
                Self.timeStep(at: date, period: spec.kind.period ?? OTPKind.defaultPeriod)
            }
        return otp.code(counter: counter)
    }

    /// A generator for one account with its key absorbed once: cheap codes for many counters.
    public func prepared(for account: Account) -> PreparedOTP {
        prepared(secret: account.secret, kind: account.kind, algorithm: account.algorithm, digits: account.digits)
    }

    private func prepared(secret: Secret, kind: OTPKind, algorithm: OTPAlgorithm, digits: Int) -> PreparedOTP {
        PreparedOTP(
            mac: hmac.counterMAC(key: secret.bytes, algorithm: algorithm), isSteam: kind == .steam, digits: digits)
    }

    /// HOTP: the code for `counter`.
    public func hotp(secret: Secret, counter: UInt64, algorithm: OTPAlgorithm = .sha1, digits: Int = 6) -> String {
        Self.decimal(truncatedValue(secret: secret, counter: counter, algorithm: algorithm), digits: digits)
    }

    /// TOTP: the code at `date` for a period in seconds.
    public func totp(
        secret: Secret, at date: Date, period: Int = 30, algorithm: OTPAlgorithm = .sha1, digits: Int = 6
    ) -> String {
        hotp(secret: secret, counter: Self.timeStep(at: date, period: period), algorithm: algorithm, digits: digits)
    }
}

/// One account's code generator with its HMAC key prepared.
public struct PreparedOTP: Sendable {
    let mac: any CounterMAC
    let isSteam: Bool
    let digits: Int

    /// The code for a counter value (the time step for time-based kinds).
    public func code(counter: UInt64) -> String {
        let value = OTPGenerator.truncate(mac.authenticationCode(forCounter: counter))
        return isSteam ? OTPGenerator.steam(value) : OTPGenerator.decimal(value, digits: digits)
    }
}
