import Domain
import Foundation

/// An entry's id as its row stores it (its UUID's text), read where the string's bytes lie: a
/// full read parses one for each of the vault's entries, and `UUID(text:)`, which Domain keeps
/// free of pointers, walks the text a character at a time.
enum EntryID {
    /// The UUID `text` spells; nil when it spells none (as `UUID(text:)` would say).
    static func uuid(_ text: String) -> UUID? {
        var utf8 = text
        return utf8.withUTF8(canonical) ?? UUID(text: text)
    }

    /// The id of 8-4-4-4-12 hex digits; nil for any other bytes (left to `UUID(text:)`).
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
}
