import TerminalUI

/// Plain-text tables for the non-interactive output: columns separated by two spaces, each
/// padded to its widest cell except the last (so lines carry no trailing blanks). Cells are
/// escaped for the terminal (TerminalText): they hold account names and config values.
enum TextTable {
    static func render(_ rows: [[String]]) -> String {
        let rows = rows.map { $0.map(TerminalText.escaped) }
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.compactMap { $0.indices.contains(column) ? $0[column].count : nil }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                column == row.count - 1 ? text : text + String(repeating: " ", count: widths[column] - text.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
