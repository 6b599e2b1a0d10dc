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
        mac.withUnsafeBytes(truncate)
    }

    /// RFC 4226 §5.3 dynamic truncation over borrowed bytes (at least 20 of them).
    public static func truncate(_ mac: UnsafeRawBufferPointer) -> UInt32 {
        let offset = Int(mac[mac.count - 1] & 0x0F)
        return (UInt32(mac[offset]) & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
            | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
    }

    /// Formats a truncated value as `digits` decimal digits, zero-padded. The digits are written
    /// into a stack buffer; a code this short becomes a small String with no heap allocation.
    public static func decimal(_ value: UInt32, digits: Int) -> String {
        let digits = min(max(digits, 1), 10)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { buffer in
            var rest = value
            for index in stride(from: digits - 1, through: 0, by: -1) {
                buffer[index] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<digits]), as: UTF8.self)
        }
    }

    /// Formats a truncated value as Steam's five characters.
    public static func steam(_ value: UInt32) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: AccountSpec.steamDigits) { buffer in
            var rest = value
            for index in 0..<AccountSpec.steamDigits {
                buffer[index] = steamBytes[Int(rest % UInt32(steamBytes.count))]
                rest /= UInt32(steamBytes.count)
            }
            return String(decoding: UnsafeBufferPointer(buffer), as: UTF8.self)
        }
    }

    private static let steamBytes = Array("23456789BCDFGHJKMNPQRTVWXY".utf8)

    /// The RFC 6238 time step of a moment: floor(unix time / period), never negative.
    public static func timeStep(at date: Date, period: Int) -> UInt64 {
        let seconds = date.timeIntervalSince1970
        guard seconds > 0 else { return 0 }
        let whole = seconds < 1.8e19 ? UInt64(seconds) : UInt64.max
        return whole / UInt64(max(1, period))
    }

    /// The truncated HMAC of a 64-bit big-endian counter.
    public func truncatedValue(secret: Secret, counter: UInt64, algorithm: OTPAlgorithm) -> UInt32 {
        PreparedOTP.truncatedValue(mac: hmac.keyed(secret.bytes, algorithm: algorithm), counter: counter)
    }

    /// The code of an account for a counter value (the time step for time-based kinds).
    public func code(for account: Account, counter: UInt64) -> String {
        prepared(for: account).code(counter: counter)
    }

    /// A generator for one account with its key absorbed once: cheap codes for many counters.
    public func prepared(for account: Account) -> PreparedOTP {
        PreparedOTP(
            mac: hmac.keyed(account.secret.bytes, algorithm: account.algorithm), isSteam: account.kind == .steam,
            digits: account.digits)
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
    let mac: any KeyedMAC
    let isSteam: Bool
    let digits: Int

    /// The code for a counter value (the time step for time-based kinds).
    public func code(counter: UInt64) -> String {
        let value = Self.truncatedValue(mac: mac, counter: counter)
        return isSteam ? OTPGenerator.steam(value) : OTPGenerator.decimal(value, digits: digits)
    }

    /// The truncated HMAC of the 8-byte big-endian counter HOTP authenticates.
    static func truncatedValue(mac: any KeyedMAC, counter: UInt64) -> UInt32 {
        withUnsafeBytes(of: counter.bigEndian) { message in mac.withAuthenticationCode(for: message, OTPGenerator.truncate) }
    }
}
