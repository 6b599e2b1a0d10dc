/// How text is decorated: ANSI colours, or nothing at all when NO_COLOR is set.
public struct Style: Sendable {
    public let colors: Bool

    public init(colors: Bool) {
        self.colors = colors
    }

    /// Colours unless the NO_COLOR convention (https://no-color.org) asks for none.
    public static func fromEnvironment(_ environment: [String: String]) -> Style {
        Style(colors: (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb")
    }

    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func red(_ text: String) -> String { wrap(text, "31") }

    private func wrap(_ text: String, _ code: String) -> String {
        colors && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
