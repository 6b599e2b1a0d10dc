import Presentation

/// Key presses from the bytes a terminal sends.
extension Key {
    /// Decodes one key from the start of `bytes`; returns the key and how many bytes it used.
    public static func decode(_ bytes: [UInt8]) -> (key: Key, length: Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x03: return (.controlC, 1)
        case 0x04: return (.controlD, 1)
        case 0x09: return (.tab, 1)
        case 0x1B:
            guard bytes.count >= 3, bytes[1] == UInt8(ascii: "[") || bytes[1] == UInt8(ascii: "O") else {
                return (.escape, 1)
            }
            switch bytes[2] {
            case UInt8(ascii: "A"): return (.up, 3)
            case UInt8(ascii: "B"): return (.down, 3)
            case UInt8(ascii: "C"): return (.right, 3)
            case UInt8(ascii: "D"): return (.left, 3)
            case UInt8(ascii: "Z"): return (.backTab, 3)
            default:
                // Skip the rest of an unknown CSI sequence (parameters, then one final byte).
                var length = 2
                while length < bytes.count, !(0x40...0x7E).contains(bytes[length]) { length += 1 }
                return (.unknown, min(length + 1, bytes.count))
            }
        case 0x00..<0x20:
            return (.unknown, 1)
        default:
            let length = utf8Length(first)
            guard bytes.count >= length, let text = String(validating: bytes[0..<length], as: UTF8.self),
                let character = text.first
            else { return (.unknown, 1) }
            return (.character(character), length)
        }
    }

    /// Decodes every key in `bytes`.
    public static func decodeAll(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var rest = bytes[...]
        while let (key, length) = decode(Array(rest)) {
            keys.append(key)
            rest = rest.dropFirst(length)
        }
        return keys
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
