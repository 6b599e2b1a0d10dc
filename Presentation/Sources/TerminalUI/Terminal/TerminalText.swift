import Domain

/// Text from outside (account names, notes, imports, error messages) made safe to write to a
/// terminal: every character Domain's AccountText forbids (C0 and C1 controls, bidi overrides
/// and isolates) and the line and paragraph separators become a visible escape (`\x1B`,
/// `\u{202E}`), so such text can never drive the terminal. Domain already keeps these characters
/// out of stored accounts; this is the second line of defence, for every path that prints.
public enum TerminalText {
    /// `text` with each non-printable character replaced by its visible escape.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        AccountText.isForbidden(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return scalar.value < 0x100
            ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
            : "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
    }
}
