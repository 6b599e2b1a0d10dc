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
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        var high: UInt8?
        reading: for (position, character) in utf8.enumerated() where utf8.count == 36 {
            switch (position, HexDigit.value(character)) {
            case (8, _), (13, _), (18, _), (23, _):
                guard character == UInt8(ascii: "-") else { break reading }
            case (_, let digit?):
                if let first = high { bytes.append(first << 4 | digit) }
                high = high == nil ? digit : nil
            default:
                break reading
            }
        }
        guard let id = bytes.count == 16 ? UUID(bytes: bytes) : UUID(uuidString: text) else { return nil }
        self = id
    }

    /// `uuidString`'s text (upper-case hex, 8-4-4-4-12), written without the C library's
    /// `snprintf`, which Foundation's formatter calls on Linux: a sync writes thousands of ids and
    /// stamps, and formatting them was a seventh of a join.
    public var text: String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (position, byte) in bytes.enumerated() {
            if position == 4 || position == 6 || position == 8 || position == 10 { text.append(UInt8(ascii: "-")) }
            text.append(Self.upperHex[Int(byte >> 4)])
            text.append(Self.upperHex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)
}
