import Foundation
import Presentation

/// The Clipboard over the terminal's OSC 52 escape sequence: works in most terminals, over SSH
/// and inside tmux (with `set-clipboard on`).
@MainActor
public final class OSC52Clipboard: Clipboard {
    public init() {}

    public func copy(_ text: String) {
        Terminal.output("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}")
    }

    public func clear() {
        // An empty payload would be a query in some terminals: overwrite with a single space.
        Terminal.output("\u{1B}]52;c;\(Data(" ".utf8).base64EncodedString())\u{07}")
    }
}
