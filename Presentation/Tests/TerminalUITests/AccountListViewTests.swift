import Foundation
import Presentation
import Testing

@testable import TerminalUI

@Suite("Terminal account list view")
struct AccountListViewTests {
    static let rows = [
        AccountRowViewModel(
            id: UUID(), issuer: "GitHub", accountName: "octocat", isFavorite: true,
            display: .timed(code: "123 456", nextCode: "654 321", secondsLeft: 12, period: 30)),
        AccountRowViewModel(
            id: UUID(), issuer: "A very long issuer name that will not fit", accountName: "someone@example.com",
            isFavorite: false, display: .onRequest(counter: 3)),
    ]

    @Test("renders issuer, account, grouped code and countdown at 80 columns")
    func wide() {
        let lines = AccountListView(style: Style(colors: false))
            .render(state: .loaded(Self.rows), query: "", chrome: .init(selectedIndex: 0), width: 80, height: 10)
        #expect(lines.count == 10)
        #expect(lines[0].hasPrefix("Tokens") && lines[0].hasSuffix("2 accounts"))
        #expect(lines[2].contains("GitHub") && lines[2].contains("octocat") && lines[2].contains("123 456"))
        #expect(lines[2].contains("12s") && lines[2].hasPrefix("›★"))
        #expect(lines[3].contains("…") && lines[3].contains("Enter: code"))
        #expect(lines.allSatisfy { $0.count <= 80 })
    }

    @Test("the rows a screen shows are the ones drawn, scrolled to the selection; a row off screen draws no code")
    func shownRows() {
        let rows = (0..<100).map { number in
            AccountRowViewModel(
                id: UUID(), issuer: "Issuer \(number)", accountName: "", isFavorite: false,
                display: number == 45 ? .offScreen : .timed(code: "123 456", nextCode: "654 321", secondsLeft: 12, period: 30))
        }
        let view = AccountListView(style: Style(colors: false))
        let shown = AccountListView.shownRows(count: 100, selected: 50, screenHeight: 10)
        #expect(shown == 44..<51)
        let lines = view.render(state: .loaded(rows), query: "", chrome: .init(selectedIndex: 50), width: 80, height: 10)
        let drawn = lines[2..<9].map { line in rows.indices.first { line.contains("Issuer \($0) ") } }
        #expect(drawn == shown.map { $0 })
        #expect(!lines[3].contains("123 456") && lines[4].contains("123 456"), "row 45 is off screen: no code")
        #expect(AccountListView.shownRows(count: 3, selected: 0, screenHeight: 10) == 0..<3)
        #expect(AccountListView.shownRows(count: 100, selected: nil, screenHeight: 2).isEmpty)
    }

    @Test("with sync: its status beside the count, s in the help; a long status is cut to the width")
    func syncStatus() {
        let view = AccountListView(style: Style(colors: false))
        let lines = view.render(state: .loaded(Self.rows), query: "", chrome: .init(sync: "synced 14:02"), width: 80, height: 10)
        #expect(lines[0].hasPrefix("Tokens") && lines[0].hasSuffix("synced 14:02 · 2 accounts"))
        #expect(lines[9].contains("s sync"))
        #expect(!view.render(state: .loaded(Self.rows), query: "", chrome: .init(), width: 80, height: 10)[9].contains("s sync"))
        let long = String(repeating: "offline ", count: 20)
        let cut = view.render(state: .loaded(Self.rows), query: "", chrome: .init(sync: long), width: 40, height: 10)[0]
        #expect(cut.count <= 40 && cut.hasSuffix(" · 2 accounts"), "the count keeps its place: \(cut)")
        let narrow = view.render(state: .loaded(Self.rows), query: "", chrome: .init(sync: "synced 14:02"), width: 24, height: 10)[0]
        #expect(narrow.hasSuffix("2 accounts") && !narrow.contains("synced"), "\(narrow)")
    }

    @Test("old backups: the warning beside the sync status and the count; the first to go when room is short")
    func backupWarning() {
        let view = AccountListView(style: Style(colors: false))
        let chrome = AccountListView.Chrome(sync: "synced 14:02", backup: "no backup for 9 days")
        let wide = view.render(state: .loaded(Self.rows), query: "", chrome: chrome, width: 80, height: 10)[0]
        #expect(wide.hasSuffix("no backup for 9 days · synced 14:02 · 2 accounts"), "\(wide)")
        let alone = view.render(state: .loaded(Self.rows), query: "", chrome: .init(backup: "no backup yet"), width: 80, height: 10)[0]
        #expect(alone.hasSuffix("no backup yet · 2 accounts"), "\(alone)")
        let narrow = view.render(state: .loaded(Self.rows), query: "", chrome: chrome, width: 40, height: 10)[0]
        #expect(narrow.count <= 40 && narrow.hasSuffix("synced 14:02 · 2 accounts"), "\(narrow)")
    }

    @Test("the clock: beside the sync status, before the backups' warning, which goes first when room is short")
    func clockStatus() {
        let view = AccountListView(style: Style(colors: false))
        let chrome = AccountListView.Chrome(sync: "synced 14:02", backup: "no backup yet", clock: "clock 63 s slow")
        let wide = view.render(state: .loaded(Self.rows), query: "", chrome: chrome, width: 80, height: 10)[0]
        #expect(wide.hasSuffix("no backup yet · clock 63 s slow · synced 14:02 · 2 accounts"), "\(wide)")
        let narrow = view.render(state: .loaded(Self.rows), query: "", chrome: chrome, width: 50, height: 10)[0]
        #expect(narrow.count <= 50 && narrow.hasSuffix("clock 63 s slow · synced 14:02 · 2 accounts"), "\(narrow)")
    }

    @Test("fits 40 columns by dropping the account column")
    func narrow() {
        let lines = AccountListView(style: Style(colors: false))
            .render(state: .loaded(Self.rows), query: "", chrome: .init(), width: 40, height: 6)
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(lines[2].contains("GitHub") && !lines[2].contains("octocat"))
        #expect(lines[2].contains("123 456"))
    }

    @Test("NO_COLOR: no escape sequences at all; otherwise colours")
    func noColor() {
        #expect(!Style.fromEnvironment(["NO_COLOR": "1"]).colors)
        #expect(Style.fromEnvironment([:]).colors)
        let plain = AccountListView(style: Style.fromEnvironment(["NO_COLOR": "1"]))
            .render(state: .loaded(Self.rows), query: "", chrome: .init(), width: 80, height: 8)
        #expect(!plain.joined().contains("\u{1B}"))
        let colored = AccountListView(style: Style(colors: true))
            .render(state: .loaded(Self.rows), query: "", chrome: .init(), width: 80, height: 8)
        #expect(colored.joined().contains("\u{1B}["))
    }

    @Test("shows the search line, empty results, loading and errors")
    func states() {
        let view = AccountListView(style: Style(colors: false))
        let searching = view.render(state: .loaded([]), query: "zz", chrome: .init(isSearching: true), width: 50, height: 6)
        #expect(searching[1].hasPrefix("/zz"))
        #expect(searching[2] == "No account matches “zz”.")
        #expect(view.render(state: .notRequested, query: "", chrome: .init(), width: 50, height: 5)[2] == "Loading…")
        #expect(
            view.render(state: .failed("disk on fire"), query: "", chrome: .init(), width: 50, height: 5)[2]
                .hasPrefix("Error: disk on fire"))
    }

    @Test("keeps the selected row on screen when the list is taller than the terminal")
    func scrolling() {
        let many = (0..<30).map {
            AccountRowViewModel(
                id: UUID(), issuer: "Issuer \($0)", accountName: "", isFavorite: false,
                display: .timed(code: "000 000", nextCode: "000 000", secondsLeft: 3, period: 30))
        }
        let lines = AccountListView(style: Style(colors: false))
            .render(state: .loaded(many), query: "", chrome: .init(selectedIndex: 25), width: 60, height: 8)
        #expect(lines.count == 8)
        #expect(lines.contains { $0.hasPrefix("› ") && $0.contains("Issuer 25") })
    }

    @Test("the hint keeps ? help and q quit at any width, with as many other keys as fit; ? shows every key")
    func hintAndHelp() {
        let view = AccountListView(style: Style(colors: false))
        for width in [20, 30, 40, 56, 72, 80, 120] {
            let footer = view.render(state: .loaded(Self.rows), query: "", chrome: .init(), width: width, height: 10)[9]
            #expect(footer.contains("? help · q quit") && footer.count <= width, "\(width): \(footer)")
        }
        let wide = view.render(state: .loaded(Self.rows), query: "", chrome: .init(), width: 120, height: 10)[9]
        #expect(wide.hasPrefix("/ search · Enter copy · a add") && wide.contains("l lock · ? help"), "\(wide)")
        let keys = ListKeys.entries(syncs: true, canLock: false)
        let help = view.render(state: .loaded(Self.rows), query: "", chrome: .init(keys: keys, showingHelp: true), width: 72, height: 20)
        #expect(help[2].hasPrefix("Keys") && !help.joined().contains("GitHub"))
        for key in ["/", "Enter, c", "n", "s", "a, +", "J, K", "d, then y", "?", "q, Esc, Ctrl-C"] {
            #expect(help.contains { $0.hasPrefix(key + " ") }, "\(key) is listed")
        }
        #expect(!help.contains { $0.hasPrefix("l ") }, "no l where nothing locks")
        #expect(help[19].contains("any key closes"))
    }
}
