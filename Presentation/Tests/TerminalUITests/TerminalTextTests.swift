import Foundation
import Presentation
import Testing

@testable import TerminalUI

/// Text from outside never reaches the terminal raw: escapes, controls and bidi overrides are
/// shown as visible escapes, wherever a view draws text.
@Suite("Terminal text escaping")
struct TerminalTextTests {
    static let hostile = [
        "Evil\u{1B}]52;c;cm0gLXJmIH4=\u{07}Bank", "\u{1B}]0;pwned\u{07}", "Bank\u{1B}[2J\u{1B}[H", "Ba\u{1B}[10A",
        "Bank\u{9B}31m", "Bank\u{202E}lapyap", "\u{2067}x\u{2069}", "Ba\u{0}nk", "Bank\u{1B}", "a\u{2028}b",
    ]

    @Test("each hostile character becomes a visible escape; other text is untouched")
    func escaped() {
        #expect(TerminalText.escaped("Evil\u{1B}]52;c;x\u{07}") == "Evil\\x1B]52;c;x\\x07")
        #expect(TerminalText.escaped("Bank\u{202E}lapyap\u{9B}") == "Bank\\u{202E}lapyap\\x9B")
        #expect(TerminalText.escaped("Zürich 東京 🔐 (ñ)") == "Zürich 東京 🔐 (ñ)")
        for text in Self.hostile {
            #expect(!TerminalText.escaped(text).unicodeScalars.contains { TerminalText.needsEscape($0) }, "\(text.debugDescription)")
        }
    }

    @Test("the list draws hostile issuers, names, searches and notices without a single control character")
    func listView() {
        let rows = Self.hostile.map {
            AccountRowViewModel(
                id: UUID(), issuer: $0, accountName: $0, isFavorite: false,
                display: .timed(code: "123 456", nextCode: "654 321", secondsLeft: 12, period: 30))
        }
        let view = AccountListView(style: Style(colors: false))
        let screens = [
            view.render(state: .loaded(rows), query: "", chrome: .init(selectedIndex: 0, notice: Self.hostile[0]), width: 100, height: 20),
            view.render(state: .loaded([]), query: Self.hostile[2], chrome: .init(), width: 100, height: 5),
            view.render(state: .loaded(rows), query: Self.hostile[1], chrome: .init(isSearching: true), width: 100, height: 20),
            view.render(state: .failed(Self.hostile[3]), query: "", chrome: .init(), width: 100, height: 5),
        ]
        for line in screens.joined() {
            #expect(!line.unicodeScalars.contains { TerminalText.needsEscape($0) }, "\(line.debugDescription)")
        }
        #expect(screens[0].joined(separator: "\n").contains("Evil\\x1B]52;c;"))
    }
}
