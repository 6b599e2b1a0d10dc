/// Fitting plain text into terminal columns. Every piece of text a view draws passes through
/// here, and is escaped first (TerminalText): nothing it is given can reach the terminal raw.
enum TextLayout {
    /// Cuts `text` to `width` columns, marking a cut with "…", and pads it to exactly `width`.
    static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        let text = TerminalText.escaped(text)
        if text.count <= width { return text + String(repeating: " ", count: width - text.count) }
        return String(text.prefix(width - 1)) + "…"
    }

    /// Right-aligns `text` in `width` columns.
    static func right(_ text: String, _ width: Int) -> String {
        let text = TerminalText.escaped(text)
        return text.count >= width ? String(text.suffix(width)) : String(repeating: " ", count: width - text.count) + text
    }
}
