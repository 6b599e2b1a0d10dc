/// Text a hostile website or export could put in an account's name: terminal escapes and
/// characters that change how text reads. Each entry names what it would do on a terminal.
public enum HostileText {
    public static let corpus: [(name: String, text: String)] = [
        ("OSC 52 clipboard write", "Evil\u{1B}]52;c;cm0gLXJmIH4=\u{07}Bank"),
        ("OSC 0 window title", "\u{1B}]0;pwned\u{07}Bank"),
        ("OSC 2 window title, ST-terminated", "Bank\u{1B}]2;pwned\u{1B}\\"),
        ("CSI clear screen", "Bank\u{1B}[2J\u{1B}[H"),
        ("CSI cursor moves", "Ba\u{1B}[10A\u{1B}[5Cnk"),
        ("C1 CSI", "Bank\u{9B}31m"),
        ("bidi override", "Bank\u{202E}lapyap"),
        ("bidi isolate", "\u{2067}Bank\u{2069}"),
        ("NUL", "Ba\u{0}nk"),
        ("lone ESC", "Bank\u{1B}"),
        ("DEL and BEL", "Ba\u{7F}nk\u{07}"),
    ]
}
