/// Formats codes for reading aloud and typing: "123 456", "1234 5678", Steam's "2TC8B" as is.
public enum CodeFormatter {
    /// The group sizes for a code of `count` digits, or nil to leave it as it is.
    static func groupSizes(forDigits count: Int) -> [Int]? {
        switch count {
        case 6: [3, 3]
        case 7: [3, 4]
        case 8: [4, 4]
        case 9: [3, 3, 3]
        case 10: [3, 3, 4]
        default: nil
        }
    }

    /// The code with a space between its groups. Runs for every row of every frame, so it works
    /// on bytes in a stack buffer; the result is a small String, with no heap allocation.
    public static func grouped(_ code: String) -> String {
        let digits = code.utf8
        guard let sizes = groupSizes(forDigits: digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return code
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            var length = 0
            var group = 0
            var inGroup = 0
            for digit in digits {
                if inGroup == sizes[group] {
                    buffer[length] = 0x20
                    length += 1
                    group += 1
                    inGroup = 0
                }
                buffer[length] = digit
                length += 1
                inGroup += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<length]), as: UTF8.self)
        }
    }
}
