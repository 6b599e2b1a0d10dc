/// A key press: what the screens react to. The terminal decodes its bytes into these
/// (TerminalUI), and tests type them directly.
public enum Key: Hashable, Sendable {
    case character(Character)
    case enter
    case escape
    case backspace
    case up, down, left, right
    case controlC
    case controlD
    case tab
    /// Shift-Tab.
    case backTab
    case unknown
}
