import Presentation

/// The Add screen: a URI line, or the fields, with the live validation message.
public struct AddAccountView: Sendable {
    public let style: Style

    public init(style: Style) {
        self.style = style
    }

    static let labels: [AddAccountViewModel.Field: String] = [
        .uri: "otpauth URI", .issuer: "Issuer", .account: "Account", .secret: "Secret (Base32)", .kind: "Type",
        .algorithm: "Algorithm", .digits: "Digits", .periodOrCounter: "Period / counter",
    ]

    @MainActor
    public func render(_ viewModel: AddAccountViewModel, width: Int, height: Int) -> [String] {
        var lines = [style.bold("Add an account"), style.dim("Paste a URI, or fill in the fields below it."), ""]
        for field in AddAccountViewModel.Field.allCases {
            let label = TextLayout.fit(Self.labels[field] ?? "", 17)
            var value = viewModel.text(of: field)
            if field == .secret { value = String(repeating: "•", count: value.count) }
            if field == .periodOrCounter, viewModel.draft.kind == .steam { value = "30 (Steam)" }
            let focused = viewModel.focus == field
            let shown = TextLayout.fit(value + (focused ? "▏" : ""), max(1, width - 20))
            let line = (focused ? "› " : "  ") + label + " " + shown
            lines.append(viewModel.usesURI && field != .uri ? style.dim(line) : line)
            if field == .uri { lines.append("") }
        }
        lines.append("")
        if !viewModel.touched {
            lines.append(style.dim("Paste an otpauth URI, or type at least the secret"))
        } else if let error = viewModel.saveError ?? viewModel.validationMessage {
            lines.append(style.red(TextLayout.fit(error, width)))
        } else {
            lines.append(style.green("Ready to save"))
        }
        while lines.count < height - 1 { lines.append("") }
        lines = Array(lines.prefix(max(0, height - 1)))
        lines.append(style.dim(TextLayout.fit("Tab/Shift-Tab move · Space cycles choices · Enter save · Esc cancel", width)))
        return lines
    }
}
