/// Plain-text tables for the non-interactive output of both programs: columns separated by two
/// spaces, each padded to its widest cell except the last (so lines carry no trailing blanks).
/// Every cell goes through `escape` first, the caller's rule for text from outside (account
/// names, device names, config values), so none can drive the terminal.
public enum TextTable {
    public static func render(_ rows: [[String]], escape: (String) -> String) -> String {
        let rows = rows.map { $0.map(escape) }
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.compactMap { $0.indices.contains(column) ? $0[column].count : nil }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                column == row.count - 1 ? text : text + String(repeating: " ", count: widths[column] - text.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
