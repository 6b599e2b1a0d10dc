/// RFC 4648 Base32: strict, unpadded encoding; decoding tolerant of how people copy secrets.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// The value of each ASCII byte, `invalid` for bytes that are not Base32.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 128)
        for (index, symbol) in alphabet.enumerated() {
            table[Int(symbol)] = UInt8(index)
            table[Int(symbol | 0x20)] = UInt8(index)  // lower case
        }
        return table
    }()
    private static let invalid: UInt8 = 0xFF

    /// Encodes bytes without `=` padding, upper case.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int((buffer >> UInt32(bits)) & 0x1F)])
            }
        }
        if bits > 0 {
            output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes Base32, accepting lower case, spaces, dashes and trailing `=` padding.
    /// Throws naming the first character that is not Base32, or when the length cannot be Base32.
    public static func decode(_ text: String) throws(Base32Error) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        var symbols = 0
        var paddingSeen = false
        for (offset, character) in text.enumerated() {
            if character == " " || character == "-" || character == "\t" { continue }
            if character == "=" {
                paddingSeen = true
                continue
            }
            guard !paddingSeen else { throw .dataAfterPadding(position: offset + 1) }
            guard let ascii = character.asciiValue, case let value = values[Int(ascii)], value != invalid else {
                throw .invalidCharacter(position: offset + 1)
            }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            symbols += 1
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        // A final group of 1, 3 or 6 symbols cannot come from any byte string.
        if [1, 3, 6].contains(symbols % 8) { throw .invalidLength(symbols: symbols) }
        return output
    }
}
