import Domain

/// Reads JSON of one exact shape, as a writer of ours lays it out, straight from its bytes: its
/// literals (keys with their quotes and colons, braces, commas), its strings (with JSON's
/// escapes), its integers and booleans. A read that fails returns nil (or false) and consumes
/// nothing; whoever gets nil gives up and decodes with JSONDecoder instead. Never traps.
package struct ExactJSONReader {
    private var bytes: [UInt8]
    private var index = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var atEnd: Bool { index == bytes.count }

    /// Consumes `text` if it is next.
    package mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = text.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
        }
        if matches { index += count }
        return matches
    }

    /// `true` or `false`.
    package mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    package mutating func string() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let opening = index
        index += 1
        // Most strings have no escape: made from the bytes where they lie.
        let start = index
        var ascii = true
        while index < bytes.count, bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            ascii = ascii && bytes[index] < 0x80
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let end = index
            index += 1
            // ASCII is UTF-8 as it stands: made without the validation, which is generic (a
            // tenth of decrypting a vault's entries).
            let text = bytes.withUnsafeBufferPointer { bytes in
                let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
                return ascii ? String(decoding: part, as: UTF8.self) : String(validating: part, as: UTF8.self)
            }
            if text == nil { index = opening }
            return text
        }
        index = start
        var text: [UInt8] = []
        defer { text.wipe() }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                if let string = String(validating: text, as: UTF8.self) { return string }
            case UInt8(ascii: "\\"):
                if let escaped = escape() {
                    text.append(escaped)
                    continue
                }
            case 0..<0x20:
                break
            default:
                text.append(byte)
                continue
            }
            index = opening
            return nil
        }
        index = opening
        return nil
    }

    /// The byte of the escape after a backslash: JSON's one-letter escapes and `\u00XX` below
    /// 0x80 (what JSON writers use for control characters); nil for any other.
    private mutating func escape() -> UInt8? {
        guard index < bytes.count else { return nil }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return escaped
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"):
            guard let value = hex4(), value < 0x80 else { return nil }
            return UInt8(value)
        default: return nil
        }
    }

    /// An unsigned integer without sign, fraction, exponent or leading zero.
    package mutating func number() -> UInt64? {
        var value: UInt64 = 0
        let start = index
        // JSON writes no leading zero ("007" is not a number).
        if bytes.count - index >= 2, bytes[index] == UInt8(ascii: "0"), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]) {
            return nil
        }
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow, !carry else {
                index = start
                return nil
            }
            value = sum
            index += 1
        }
        return index > start ? value : nil
    }

    /// An integer, negative or not, without fraction or exponent.
    package mutating func integer() -> Int64? {
        let start = index
        let negative = literal("-")
        guard let magnitude = number() else {
            index = start
            return nil
        }
        let value: Int64? =
            negative ? (magnitude == 1 << 63 ? Int64.min : Int64(exactly: magnitude).map { -$0 }) : Int64(exactly: magnitude)
        if value == nil { index = start }
        return value
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = HexDigit.value(bytes[index]) else { return nil }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Zeroes the bytes it holds (they may hold a secret).
    package mutating func wipe() {
        bytes.wipe()
    }
}
