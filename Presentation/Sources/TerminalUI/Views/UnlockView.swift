import Presentation

/// The Unlock screen: a masked passphrase line and what went wrong.
public struct UnlockView: Sendable {
    public let style: Style

    public init(style: Style) {
        self.style = style
    }

    public func render(state: UnlockViewModel.State, typed: Int, width: Int, height: Int) -> [String] {
        var lines = [style.bold("Tokens"), "", "The vault is locked.", ""]
        lines.append("Passphrase: " + String(repeating: "•", count: min(typed, max(0, width - 13))))
        lines.append("")
        switch state {
        case .ready: lines.append(style.dim("Enter to unlock · Esc to quit"))
        case .checking: lines.append("Unlocking…")
        case .failed(let message): lines.append(style.red(TextLayout.fit(message, width)))
        case .waiting(let message, let seconds):
            lines.append(style.red(TextLayout.fit("\(message): wait \(seconds) s before trying again", width)))
        }
        while lines.count < height { lines.append("") }
        return Array(lines.prefix(height))
    }
}
