import Presentation

/// Renders the account list screen as lines of text for a terminal of a given size.
/// A pure function of the view model's outputs, so it is tested without a terminal.
public struct AccountListView: Sendable {
    /// What the screen shows besides the view model's state.
    public struct Chrome: Sendable {
        public var isSearching: Bool
        public var selectedIndex: Int?
        public var notice: String?
        /// The sync status ("synced 14:02", "offline: 2 changes wait"); nil when the vault does not sync.
        public var sync: String?
        /// A warning about the backups ("no backup for 9 days"); nil when they are recent.
        public var backup: String?
        /// The clock: the codes' correction ("codes at -5 min") or a clock off the server's
        /// ("clock 63 s slow"); nil when there is nothing to say.
        public var clock: String?
        /// The screen's keys: the footer's hint, and the `?` overlay while `showingHelp`.
        public var keys: [ListKeys.Entry]
        public var showingHelp: Bool
        /// `keys` nil: those of a vault that can be locked, with `s` where `sync` is given.
        public init(
            isSearching: Bool = false, selectedIndex: Int? = nil, notice: String? = nil, sync: String? = nil,
            backup: String? = nil, clock: String? = nil, keys: [ListKeys.Entry]? = nil, showingHelp: Bool = false
        ) {
            self.backup = backup
            self.clock = clock
            self.isSearching = isSearching
            self.selectedIndex = selectedIndex
            self.notice = notice
            self.sync = sync
            self.keys = keys ?? ListKeys.entries(syncs: sync != nil, canLock: true)
            self.showingHelp = showingHelp
        }
    }

    /// Columns below which the account name column is dropped.
    static let wideLayout = 60
    /// The narrowest layout drawn in full.
    static let minimumWidth = 20

    public let style: Style

    public init(style: Style) {
        self.style = style
    }

    public func render(
        state: Loadable<[AccountRowViewModel]>, query: String, chrome: Chrome, width: Int, height: Int
    ) -> [String] {
        let width = max(width, Self.minimumWidth)
        var lines: [String] = [header(width: width, count: state.value?.count, statuses: [chrome.sync, chrome.clock, chrome.backup])]
        lines.append(searchLine(query: query, isSearching: chrome.isSearching, width: width))
        let bodyHeight = max(0, height - Self.chromeLines)
        if chrome.showingHelp {
            lines += Array(help(chrome.keys, width: width).prefix(bodyHeight))
        } else {
            lines += body(state: state, query: query, selected: chrome.selectedIndex, width: width, height: bodyHeight)
        }
        while lines.count < height - 1 { lines.append("") }
        lines.append(footer(chrome: chrome, width: width))
        return lines
    }

    /// "Tokens", then on the right the count and, as room allows, each status before it
    /// (the first given nearest the count): "no backup for 9 days · synced 14:02 · 2 accounts".
    private func header(width: Int, count: Int?, statuses: [String?]) -> String {
        let title = "Tokens"
        let accounts = count.map { $0 == 1 ? "1 account" : "\($0) accounts" } ?? ""
        let room = max(0, width - title.count - 1)
        // The count keeps its place; each status gets what room is left (TextLayout.fit
        // escapes what it draws).
        var detail = accounts.count > room ? String(TextLayout.fit(accounts, room).prefix(room)) : accounts
        for case let status? in statuses where !status.isEmpty {
            let statusRoom = room - detail.count - (detail.isEmpty ? 0 : 3)
            guard statusRoom >= 4 else { break }
            let shown = status.count > statusRoom ? String(TextLayout.fit(status, statusRoom).prefix(statusRoom)) : status
            detail = detail.isEmpty ? shown : shown + " · " + detail
        }
        let gap = max(1, width - title.count - detail.count)
        return style.bold(title) + String(repeating: " ", count: gap) + style.dim(detail)
    }

    private func searchLine(query: String, isSearching: Bool, width: Int) -> String {
        if isSearching { return TextLayout.fit("/" + query + "▏", width) }
        if !query.isEmpty { return style.dim(TextLayout.fit("filter: " + query, width)) }
        return ""
    }

    /// The indices of the rows a body of `height` lines shows: scrolled so the selected one
    /// stays on screen.
    static func shownRows(count: Int, selected: Int?, height: Int) -> Range<Int> {
        let first = max(0, min((selected ?? 0) - height + 1, count - height))
        return first..<min(count, first + max(0, height))
    }

    /// The rows of the list a screen of `height` lines shows (the list view model makes codes
    /// for those: `AccountListViewModel.showRows`).
    public static func shownRows(count: Int, selected: Int?, screenHeight height: Int) -> Range<Int> {
        shownRows(count: count, selected: selected, height: max(0, height - chromeLines))
    }

    /// The lines around the list's body: the header and the search line above, the footer below.
    static let chromeLines = 3

    /// The rows that fit, scrolled so the selected one stays on screen; only those are drawn.
    private func body(
        state: Loadable<[AccountRowViewModel]>, query: String, selected: Int?, width: Int, height: Int
    ) -> [String] {
        switch state {
        case .notRequested, .isLoading(last: nil):
            return ["Loading…"]
        case .failed(let message):
            return [style.red(TextLayout.fit("Error: " + message, width))]
        case .loaded(let rows), .isLoading(last: .some(let rows)):
            if rows.isEmpty { return [query.isEmpty ? "No accounts yet." : "No account matches “\(TerminalText.escaped(query))”."] }
            return Self.shownRows(count: rows.count, selected: selected, height: height).map { index in
                line(for: rows[index], selected: index == selected, width: width)
            }
        }
    }

    /// One row: "›★ Issuer  account  123 456  12s".
    func line(for row: AccountRowViewModel, selected: Bool, width: Int) -> String {
        let codeText: String
        let countdown: String
        switch row.display {
        case .timed(let code, _, let seconds, _):
            codeText = code
            countdown = TextLayout.right("\(seconds)s", 4)
        case .onRequest:
            codeText = "Enter: code"
            countdown = "    "
        case .generated(let code, let counter):
            codeText = code
            countdown = TextLayout.right("#\(counter)", 4)
        case .offScreen:
            codeText = ""
            countdown = "    "
        }
        let codeWidth = 12
        let star = (selected ? "›" : " ") + (row.isFavorite ? "★ " : "  ")
        let nextWidth = width >= Self.wideLayout ? 13 : 0
        let nameSpace = width - star.count - codeWidth - countdown.count - 2 - nextWidth
        let names: String
        if width >= Self.wideLayout {
            let issuerWidth = nameSpace / 2
            names =
                TextLayout.fit(row.issuer, issuerWidth) + " "
                + style.dim(TextLayout.fit(row.accountName, nameSpace - issuerWidth - 1))
        } else {
            names = TextLayout.fit(row.issuer.isEmpty ? row.accountName : row.issuer, nameSpace)
        }
        let urgent = row.upcoming != nil
        let code = TextLayout.right(codeText, codeWidth)
        let next = row.upcoming.map { " → " + $0 } ?? ""
        let line = star + names + " " + (urgent ? style.red(code) : style.green(code)) + " " + style.dim(countdown)
        return next.isEmpty || width < Self.wideLayout ? line : line + style.dim(next)
    }

    /// The `?` overlay: each key and what it does, the keys in a column of their own.
    private func help(_ keys: [ListKeys.Entry], width: Int) -> [String] {
        let column = (keys.map(\.keys.count).max() ?? 0) + 2
        let lines = keys.map { entry in
            style.bold(TextLayout.fit(entry.keys, column)) + TextLayout.fit(entry.action, max(1, width - column))
        }
        return [style.bold("Keys") + style.dim(" (any key closes this)")] + lines
    }

    private func footer(chrome: Chrome, width: Int) -> String {
        if let notice = chrome.notice { return style.yellow(TextLayout.fit(notice, width)) }
        if chrome.showingHelp { return style.dim(TextLayout.fit("any key closes the help", width)) }
        let help = chrome.isSearching ? "Enter done · Esc clear" : ListKeys.hint(chrome.keys, width: width)
        return style.dim(TextLayout.fit(help, width))
    }
}
