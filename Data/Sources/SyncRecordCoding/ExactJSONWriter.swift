import Domain

/// Writes JSON byte for byte as JSONEncoder does with sorted keys and no other option, for the
/// shapes a writer of ours lays out by hand: its literals (keys with their quotes and colons,
/// braces, commas), strings (with JSONEncoder's escapes), integers and booleans. The mirror of
/// `ExactJSONReader`; tests hold its bytes to JSONEncoder's.
package struct ExactJSONWriter {
    package private(set) var bytes: [UInt8] = []
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `capacity`: room for the worst case, so the buffer never grows and leaves no copy of a
    /// secret in freed memory.
    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// The most bytes `string(text)` writes: every byte escaped as `\u00XX`, and the quotes.
    package static func room(for text: String) -> Int { 6 * text.utf8.count + 2 }

    /// Appends `text` as it is (a key with its quotes and colon, a brace, a comma).
    package mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func bool(_ value: Bool) {
        value ? literal("true") : literal("false")
    }

    /// A string in quotes, escaped as JSONEncoder escapes it: `"`, `\` and `/` with a backslash,
    /// the usual one-letter escapes, other control characters as `\u00XX`, everything else as
    /// its UTF-8.
    package mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(contentsOf: [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An integer in decimal.
    package mutating func integer(_ value: some BinaryInteger) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Zeroes the bytes it holds (they may hold a secret).
    package mutating func wipe() {
        bytes.wipe()
    }
}
