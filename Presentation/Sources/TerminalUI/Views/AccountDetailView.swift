import Presentation

/// The Detail screen: the editable fields, then what cannot change.
public struct AccountDetailView: Sendable {
    public let style: Style

    public init(style: Style) {
        self.style = style
    }

    static let labels: [AccountDetailViewModel.Field: String] = [
        .issuer: "Issuer", .account: "Account", .note: "Note", .groups: "Groups", .favorite: "Favourite",
    ]

    @MainActor
    public func render(_ viewModel: AccountDetailViewModel, width: Int, height: Int) -> [String] {
        var lines = [style.bold("Account details"), ""]
        for field in AccountDetailViewModel.Field.allCases {
            let focused = viewModel.focus == field
            let value = viewModel.text(of: field) + (focused && field != .favorite ? "▏" : "")
            lines.append(
                (focused ? "› " : "  ") + TextLayout.fit(Self.labels[field] ?? "", 11) + " " + TextLayout.fit(value, max(1, width - 14)))
        }
        if let account = viewModel.account.value {
            lines.append("")
            let kind =
                switch account.kind {
                case .totp(let period): "TOTP, every \(period) s"
                case .hotp(let counter): "HOTP, counter \(counter)"
                case .steam: "Steam Guard"
                }
            lines.append(style.dim("  \(kind) · \(account.algorithm.rawValue) · \(account.digits) digits"))
        }
        if let error = viewModel.error ?? viewModel.account.failureMessage {
            lines.append("")
            lines.append(style.red(TextLayout.fit(error, width)))
        }
        while lines.count < height - 1 { lines.append("") }
        lines = Array(lines.prefix(max(0, height - 1)))
        lines.append(style.dim(TextLayout.fit("Tab next field · Space toggles favourite · Enter save · Esc back", width)))
        return lines
    }
}
