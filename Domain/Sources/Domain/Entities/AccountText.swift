/// The rule for an account's text (issuer, account name, note, groups): no C0 or C1 control
/// characters (NUL, BEL, ESC, DEL…) and no Unicode bidirectional overrides or isolates
/// (U+202A–U+202E, U+2066–U+2069). This text is written by others — a website's enrolment QR
/// code, another app's export — and ends up on terminals, where an ESC can rewrite the clipboard
/// or the window title, and a bidi override can make one name look like another.
public enum AccountText {
    /// The longest issuer or account name, in characters.
    public static let maximumNameLength = 256
    /// The longest note, in characters.
    public static let maximumNoteLength = 4_096
    /// The longest group name, in characters, and the most groups an account may have.
    public static let maximumGroupLength = 64
    public static let maximumGroups = 32

    /// Whether the rule forbids this character in account text.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether `text` holds a forbidden character.
    public static func containsForbidden(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isForbidden)
    }

    /// `text` without its forbidden characters, and how many there were.
    public static func removingForbidden(_ text: String) -> (text: String, removed: Int) {
        guard containsForbidden(text) else { return (text, 0) }
        var kept = String.UnicodeScalarView()
        var removed = 0
        for scalar in text.unicodeScalars {
            if isForbidden(scalar) { removed += 1 } else { kept.append(scalar) }
        }
        return (String(kept), removed)
    }

    /// `text` without forbidden characters, trimmed, for an import; `field` is added to
    /// `cleaned` when any were removed, so the report can say which fields lost some.
    public static func removingForbidden(
        _ text: String, as field: AccountTextField, noting cleaned: inout [AccountTextField]
    ) -> String {
        let (kept, removed) = removingForbidden(text)
        guard removed > 0 else { return text }
        if !cleaned.contains(field) { cleaned.append(field) }
        return kept.trimmingSpaces
    }

    /// Groups as a person writes them, comma-separated ("Work, Banks"): each trimmed, empty ones
    /// and repeats dropped, in the order given. The inverse of `groupList(_:)`.
    public static func groups(fromList text: String) -> [String] {
        var seen = Set<String>()
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Groups as one line to read and edit: "Work, Banks".
    public static func groupList(_ groups: [String]) -> String {
        groups.joined(separator: ", ")
    }

    /// Checks the text fields an account carries beside its spec.
    public static func validate(note: String, groups: [String]) throws(AccountValidationError) {
        if containsForbidden(note) { throw .forbiddenCharacters(.note) }
        if groups.contains(where: containsForbidden) { throw .forbiddenCharacters(.group) }
        if note.count > maximumNoteLength { throw .tooLong(.note, limit: maximumNoteLength) }
        if groups.contains(where: { $0.count > maximumGroupLength }) { throw .tooLong(.group, limit: maximumGroupLength) }
        if groups.count > maximumGroups { throw .tooManyGroups(limit: maximumGroups) }
    }
}

/// An account's text fields, as errors and reports name them.
public enum AccountTextField: String, CaseIterable, Hashable, Sendable {
    case issuer, account, note, group
}
