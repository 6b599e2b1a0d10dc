import Foundation
import Presentation
import Synchronization

/// The Clipboard over the terminal's OSC 52 escape sequence: works in most terminals, over SSH
/// and inside tmux (with `set-clipboard on`). A code still on the clipboard when the screen
/// ends, however it ends (quit, SIGINT, SIGTERM, SIGHUP), is cleared by Terminal's restore.
@MainActor
public final class OSC52Clipboard: Clipboard {
    /// Whether a copied code is waiting to be cleared (read from the signal handlers' queue).
    private nonisolated static let pending = Mutex(false)

    /// Found on first use (the first copy), not while the screen starts: finding it may ask
    /// another program (tmux), and most sessions never copy.
    public private(set) lazy var caveat: String? = findCaveat()
    private let findCaveat: () -> String?

    /// `caveat`: what the first copy's notice adds (the composition knows how to find it, e.g.
    /// tmux's setting); asked once at most.
    public init(caveat: @escaping () -> String?) { findCaveat = caveat }

    public func copy(_ text: String) {
        Self.pending.withLock { $0 = true }
        Terminal.output("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}")
    }

    public func clear() {
        Self.pending.withLock { $0 = false }
        Terminal.output(Self.clearSequence)
    }

    /// Clears the clipboard if a copied code is still on it; for the end of the screen.
    nonisolated static func clearIfPending() {
        guard
            pending.withLock({
                let was = $0
                $0 = false
                return was
            })
        else { return }
        Terminal.output(clearSequence)
    }

    // An empty payload would be a query in some terminals: overwrite with a single space.
    private nonisolated static let clearSequence = "\u{1B}]52;c;\(Data(" ".utf8).base64EncodedString())\u{07}"
}
