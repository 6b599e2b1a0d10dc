import Foundation

/// Inside tmux, a copy (OSC 52) reaches the outer terminal's clipboard only when tmux's
/// `set-clipboard` is `on`; its default, `external`, drops what programs send, silently. The
/// screen says so with the first copy, unless tmux says the option is on.
enum TmuxClipboard {
    static let advice = "inside tmux it reaches the clipboard only with set -s set-clipboard on in tmux.conf"

    /// The caveat: nil outside tmux (no `TMUX`) or when `setClipboard` (tmux's answer) is `on`.
    static func caveat(environment: [String: String], setClipboard: () -> String?) -> String? {
        guard environment["TMUX"] != nil else { return nil }
        return setClipboard()?.trimmingCharacters(in: .whitespacesAndNewlines) == "on" ? nil : advice
    }

    /// tmux's `set-clipboard` (`tmux show-options -sv set-clipboard`, on the session's server);
    /// nil when tmux cannot be asked or does not answer within a second.
    static func setClipboardOption() -> String? {
        guard
            case .exited(0, let output)? = HelperProgram.run(
                "/usr/bin/env", ["tmux", "show-options", "-sv", "set-clipboard"], timeout: 1, limit: 4_096)
        else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
