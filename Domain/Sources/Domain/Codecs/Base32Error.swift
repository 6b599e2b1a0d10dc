/// Why a text is not Base32.
public enum Base32Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// A character outside A–Z, 2–7 (and the tolerated spaces, dashes and padding). Only its
    /// position is kept: the character is part of a secret, and errors reach terminals and logs.
    case invalidCharacter(position: Int)
    /// A symbol after `=` padding.
    case dataAfterPadding(position: Int)
    /// A symbol count no byte string encodes to (1, 3 or 6 past a multiple of 8).
    case invalidLength(symbols: Int)

    public var description: String {
        switch self {
        case .invalidCharacter(let position):
            return "invalid Base32 character at position \(position) (use A–Z and 2–7)"
        case .dataAfterPadding(let position):
            return "Base32 text continues after '=' padding at position \(position)"
        case .invalidLength(let symbols):
            return "invalid Base32 length (\(symbols) symbols): the text looks truncated"
        }
    }
}
