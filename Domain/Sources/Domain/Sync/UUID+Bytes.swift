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
        let high = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = [u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (high, low)
    }

    /// The id a canonical text spells (8-4-4-4-12 hex digits, either case), read without the C
    /// library's `sscanf`, which Foundation's parser calls; any other text is left to
    /// `UUID(uuidString:)`, so the result is always that initializer's.
    public init?(text: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        var utf8 = text.utf8.makeIterator()
        var position = 0
        while let character = utf8.next() {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard character == UInt8(ascii: "-") else { break }
                continue
            }
            let digit: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = character - UInt8(ascii: "A") + 10
            default: digit = 0xFF
            }
            guard digit != 0xFF else { break }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        if position == 36, bytes.count == 16, text.utf8.count == 36, let id = UUID(bytes: bytes) {
            self = id
        } else if let id = UUID(uuidString: text) {
            self = id
        } else {
            return nil
        }
    }
}
