/// One hexadecimal digit's value: the one reading of hex that ids, JSON escapes and the vault's
/// hex text share.
public enum HexDigit {
    /// The value of `digit` (either case), or nil when it is not a hex digit.
    /// Inlinable: a UUID read from text asks it 32 times.
    @inlinable
    public static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
