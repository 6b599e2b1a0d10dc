import Foundation

/// A query read as the start of an account's id: hex digits (any case) and dashes, at least
/// four digits, compared with the id's canonical text in lower case ("3f2a91c0" as `list`
/// shows it, or the whole id).
public struct AccountIDPrefix: Hashable, Sendable {
    /// The shortest prefix accepted, in digits (`list` shows eight).
    public static let minimumDigits = 4

    /// The prefix's lower-case ASCII.
    private let text: [UInt8]

    /// Nil unless `query` can be (a prefix of) an id.
    public init?(_ query: String) {
        let digits = query.filter { $0 != "-" }
        guard digits.count >= Self.minimumDigits, digits.allSatisfy(\.isHexDigit), query.count <= 36 else { return nil }
        text = Array(query.lowercased().utf8)
    }

    /// Whether `id`'s text starts with the prefix; the text is made only as far as the prefix
    /// goes (a store compares thousands of ids).
    public func matches(_ id: UUID) -> Bool {
        let u = id.uuid
        let high = Self.word(u.0, u.1, u.2, u.3) << 32 | Self.word(u.4, u.5, u.6, u.7)
        let low = Self.word(u.8, u.9, u.10, u.11) << 32 | Self.word(u.12, u.13, u.14, u.15)
        var position = 0
        for digit in 0..<32 {
            if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                if position == text.count { return true }
                guard text[position] == UInt8(ascii: "-") else { return false }
                position += 1
            }
            if position == text.count { return true }
            let nibble = ((digit < 16 ? high : low) >> UInt64(60 - 4 * (digit % 16))) & 0x0F
            guard text[position] == Self.hexDigits[Int(nibble)] else { return false }
            position += 1
        }
        return position == text.count
    }

    private static func word(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt64 {
        UInt64(a) << 24 | UInt64(b) << 16 | UInt64(c) << 8 | UInt64(d)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
