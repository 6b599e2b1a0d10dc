/// Formats codes for reading aloud and typing: "123 456", "1234 5678", Steam's "2TC8B" as is.
public enum CodeFormatter {
    private static let groups: [Int: [Int]] = [6: [3, 3], 7: [3, 4], 8: [4, 4], 9: [3, 3, 3], 10: [3, 3, 4]]

    public static func grouped(_ code: String) -> String {
        guard let sizes = groups[code.count], code.allSatisfy(\.isNumber) else { return code }
        var rest = Substring(code)
        return sizes.map { size in
            defer { rest = rest.dropFirst(size) }
            return String(rest.prefix(size))
        }.joined(separator: " ")
    }
}
