import Foundation

/// Why a config file is not JSON, in one line a person can act on: where (line and column), not
/// Foundation's error domain and code.
enum ConfigFileSyntax {
    /// The problem with `data` as JSON, or nil when it parses.
    static func problem(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            if let offset = characterOffset(in: detail) {
                let (line, column) = position(of: offset, in: data)
                return "not valid JSON at line \(line), column \(column)"
            }
            if detail.contains("end of file") {
                return "not valid JSON: it ends before it is complete (a missing } or ])"
            }
            return "not valid JSON"
        }
    }

    /// The offset in "… around character 15.", as Foundation words it.
    static func characterOffset(in detail: String) -> Int? {
        guard let range = detail.range(of: "character ") else { return nil }
        return Int(detail[range.upperBound...].prefix { $0.isNumber })
    }

    /// The 1-based line and column of byte `offset`.
    static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var (line, column) = (1, 1)
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                (line, column) = (line + 1, 1)
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}
