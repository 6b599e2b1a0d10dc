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
        var utf8 = text
        guard let id = utf8.withUTF8(Self.canonical) ?? UUID(uuidString: text) else { return nil }
        self = id
    }

    /// The id `utf8` spells as 8-4-4-4-12 hex digits, read in place (a vault's read parses an
    /// id for each of its entries); nil for any other text.
    private static func canonical(_ utf8: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard utf8.count == 36 else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let read = withUnsafeMutableBytes(of: &raw) { bytes -> Bool in
            var at = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard utf8[at] == UInt8(ascii: "-") else { return false }
                    at += 1
                }
                guard let high = HexDigit.value(utf8[at]), let low = HexDigit.value(utf8[at + 1]) else { return false }
                bytes[index] = high << 4 | low
                at += 2
            }
            return true
        }
        return read ? UUID(uuid: raw) : nil
    }

    /// `uuidString`'s text (upper-case hex, 8-4-4-4-12), written without the C library's
    /// `snprintf`, which Foundation's formatter calls on Linux: a sync writes thousands of ids and
    /// stamps, and formatting them was a seventh of a join.
    public var text: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = Self.upperHex[Int(byte >> 4)]
                    text[at + 1] = Self.upperHex[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }

    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)
}
