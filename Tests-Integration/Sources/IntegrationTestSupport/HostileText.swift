import Foundation

/// Account text a hostile website or export could plant: terminal escapes and characters that
/// change how text reads, as raw text and as a Key URI would carry it.
public enum HostileText {
    /// Base64 of what the OSC 52 entries would put on the clipboard.
    public static let clipboardPayload = Data("rm -rf ~ # hostile".utf8).base64EncodedString()

    public static let corpus: [(name: String, text: String)] = [
        ("OSC 52 clipboard write", "Evil\u{1B}]52;c;\(clipboardPayload)\u{07}Bank"),
        ("OSC 0 window title", "\u{1B}]0;pwned\u{07}Title"),
        ("OSC 2 window title, ST-terminated", "Title\u{1B}]2;pwned\u{1B}\\"),
        ("CSI clear screen", "Clear\u{1B}[2J\u{1B}[H"),
        ("CSI cursor moves", "Mo\u{1B}[10A\u{1B}[5Cve"),
        ("bidi override", "Bidi\u{202E}lapyap"),
        ("NUL", "Nu\u{0}l"),
        ("lone ESC", "Lone\u{1B}"),
    ]

    /// A TOTP Key URI whose issuer and account name are `text`, percent-encoded as a site would.
    public static func uri(_ text: String, secret: String = "JBSWY3DPEHPK3PXP") -> String {
        let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "otpauth://totp/\(encoded):\(encoded)?secret=\(secret)&issuer=\(encoded)"
    }

    /// Whether `output` holds a character that could drive a terminal (tab and newline aside).
    public static func hasControl(_ output: String) -> Bool {
        output.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x09, 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }
}
