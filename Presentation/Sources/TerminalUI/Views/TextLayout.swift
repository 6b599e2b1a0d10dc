/// Fitting plain text into terminal columns.
enum TextLayout {
    /// Cuts `text` to `width` columns, marking a cut with "…", and pads it to exactly `width`.
    static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        if text.count <= width { return text + String(repeating: " ", count: width - text.count) }
        return String(text.prefix(width - 1)) + "…"
    }

    /// Right-aligns `text` in `width` columns.
    static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.suffix(width)) : String(repeating: " ", count: width - text.count) + text
    }
}
