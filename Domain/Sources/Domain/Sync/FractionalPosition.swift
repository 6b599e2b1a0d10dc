/// A place in the user's order that moves one entry without renumbering the others: a string
/// of base-62 digits compared as text, with room between any two (positions never end in the
/// smallest digit, so there is always room below one too). Equal positions, which two machines
/// can make at once, are ordered by entry id.
public struct FractionalPosition: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let digits: String

    /// A position from its text; nil unless it is made of the digits and does not end in "0".
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.allSatisfy({ Self.value(of: $0) != nil }), text.utf8.last != Self.alphabet[0] else {
            return nil
        }
        digits = text
    }

    private init(trusted text: String) { digits = text }

    public var description: String { digits }

    public static func < (lhs: FractionalPosition, rhs: FractionalPosition) -> Bool { lhs.digits < rhs.digits }

    /// A position after `lower` and before `upper` (nil: no bound on that side). `lower` must
    /// come before `upper`; if not, the bound above is ignored.
    public static func between(_ lower: FractionalPosition?, _ upper: FractionalPosition?) -> FractionalPosition {
        let low = Array(lower?.digits.utf8 ?? "".utf8)
        var high: [UInt8]? = upper.map { Array($0.digits.utf8) }
        if let lower, let upper, lower >= upper { high = nil }
        var result: [UInt8] = []
        var index = 0
        while true {
            let lo = index < low.count ? Self.value(of: low[index])! : 0
            let hi = high.map { index < $0.count ? Self.value(of: $0[index])! : 0 } ?? Self.alphabet.count
            if hi - lo > 1 {
                result.append(Self.alphabet[(lo + hi) / 2])
                return FractionalPosition(trusted: String(decoding: result, as: UTF8.self))
            }
            result.append(Self.alphabet[lo])
            // One digit apart: whatever follows this prefix is already below `upper`.
            if hi - lo == 1 { high = nil }
            index += 1
        }
    }

    /// `count` positions in order, evenly spread and short (for a list given its first order):
    /// fixed-width base-62 numbers with one digit to spare, trailing zeros dropped.
    public static func spread(_ count: Int) -> [FractionalPosition] {
        guard count > 0 else { return [] }
        var width = 1
        var capacity = alphabet.count
        while capacity <= count * alphabet.count {
            width += 1
            capacity = capacity.multipliedReportingOverflow(by: alphabet.count).overflow ? Int.max : capacity * alphabet.count
        }
        let step = Double(capacity) / Double(count + 1)
        return (1...count).map { index in
            var value = Int(Double(index) * step)
            var digits = [UInt8](repeating: alphabet[0], count: width)
            for place in stride(from: width - 1, through: 0, by: -1) {
                digits[place] = alphabet[value % alphabet.count]
                value /= alphabet.count
            }
            while digits.last == alphabet[0] { digits.removeLast() }
            return FractionalPosition(trusted: String(decoding: digits, as: UTF8.self))
        }
    }

    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    static func value(of digit: UInt8) -> Int? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(digit - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(digit - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(digit - UInt8(ascii: "a")) + 36
        default: nil
        }
    }
}
