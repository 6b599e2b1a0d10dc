import Foundation

extension UUID {
    /// The 16 bytes of the id, in order (for keys, associated data and codes).
    public var bytes: [UInt8] {
        let u = uuid
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }

    /// The id of 16 bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        let b = bytes
        self.init(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}

extension UUID {
    /// Whether this id sorts before `other` as their `uuidString`s do: that text is the bytes
    /// in order as upper-case hex in one layout, so comparing the bytes gives the same order
    /// without making two strings (the merge rules compare stamps' devices by it, ten thousand
    /// entries at a sync).
    public func ordersBefore(_ other: UUID) -> Bool {
        let (mine, theirs) = (orderKey, other.orderKey)
        return mine.high != theirs.high ? mine.high < theirs.high : mine.low < theirs.low
    }

    /// The bytes as two big-endian numbers: compared in turn, the bytes' order.
    private var orderKey: (high: UInt64, low: UInt64) {
        let u = uuid
        let high =
            UInt64(u.0) << 56 | UInt64(u.1) << 48 | UInt64(u.2) << 40 | UInt64(u.3) << 32 | UInt64(u.4) << 24 | UInt64(u.5) << 16
            | UInt64(u.6) << 8 | UInt64(u.7)
        let low =
            UInt64(u.8) << 56 | UInt64(u.9) << 48 | UInt64(u.10) << 40 | UInt64(u.11) << 32 | UInt64(u.12) << 24 | UInt64(u.13) << 16
            | UInt64(u.14) << 8 | UInt64(u.15)
        return (high, low)
    }

    /// The id a canonical text spells (8-4-4-4-12 hex digits, either case), read without the C
    /// library's `sscanf`, which Foundation's parser calls; any other text is left to
    /// `UUID(uuidString:)`, so the result is always that initializer's.
    public init?(text: String) {
        guard let id = Self.canonical(text.utf8) ?? UUID(uuidString: text) else { return nil }
        self = id
    }

    /// The id `utf8` spells as 8-4-4-4-12 hex digits, read into two numbers without a buffer (a
    /// vault's read parses an id for each of its entries); nil for any other text.
    private static func canonical(_ utf8: String.UTF8View) -> UUID? {
        guard utf8.count == 36 else { return nil }
        var (high, low, digits): (UInt64, UInt64, Int) = (0, 0, 0)
        for (position, character) in utf8.enumerated() {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let digit = HexDigit.value(character) else { return nil }
            if digits < 16 { high = high << 4 | UInt64(digit) } else { low = low << 4 | UInt64(digit) }
            digits += 1
        }
        func byte(_ value: UInt64, _ index: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }

    /// `uuidString`'s text (upper-case hex, 8-4-4-4-12), written without the C library's
    /// `snprintf`, which Foundation's formatter calls on Linux: a sync writes thousands of ids and
    /// stamps, and formatting them was a seventh of a join.
    public var text: String {
        let (high, low) = orderKey
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for digit in 0..<32 {
            if digit == 8 || digit == 12 || digit == 16 || digit == 20 { text.append(UInt8(ascii: "-")) }
            let nibble = digit < 16 ? high >> (60 - 4 * digit) : low >> (60 - 4 * (digit - 16))
            text.append(Self.upperHex[Int(nibble & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)
}
