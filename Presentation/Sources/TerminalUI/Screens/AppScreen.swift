import Foundation
import Observation
import Presentation

/// The interactive app: draws whichever screen the router shows, live, in the alternate
/// screen, and turns key presses into view-model inputs. Everything it shows comes from
/// AppState, the router's view models and their outputs.
@MainActor
public final class AppScreen {
    private let router: AppRouter
    private let terminal: Terminal
    private let listView: AccountListView
    private let unlockView: UnlockView
    private let addView: AddAccountView
    private let detailView: AccountDetailView
    private var chrome = AccountListView.Chrome(selectedIndex: 0)
    private var passphrase: [UInt8] = []
    private var confirmingDelete: UUID?
    private var ticker: Task<Void, Never>?
    private weak var tickingList: AccountListViewModel?
    private var isRunning = true

    public init(router: AppRouter, terminal: Terminal = Terminal(), style: Style) {
        self.router = router
        self.terminal = terminal
        self.listView = AccountListView(style: style)
        self.unlockView = UnlockView(style: style)
        self.addView = AddAccountView(style: style)
        self.detailView = AccountDetailView(style: style)
    }

    /// Runs until the user quits; the terminal is restored however it ends.
    public func run() async {
        terminal.enter(onResize: { Task { @MainActor [weak self] in self?.draw() } })
        defer {
            wipePassphrase()
            ticker?.cancel()
            terminal.leave()
        }
        router.start()
        await startListIfNeeded()
        drawOnChange()
        for await key in terminal.keys() {
            router.userActivity()
            await handle(key)
            guard isRunning else { break }
            await startListIfNeeded()
            draw()
        }
    }

    /// Loads a new list view model and keeps its codes ticking; loads a new detail view model.
    private func startListIfNeeded() async {
        if let detail = router.detail, case .notRequested = detail.account { await detail.load() }
        guard let list = router.list else {
            ticker?.cancel()
            tickingList = nil
            return
        }
        guard list !== tickingList else { return }
        tickingList = list
        ticker?.cancel()
        await list.load()
        ticker = Task { await list.run() }
    }

    private func drawOnChange() {
        guard isRunning else { return }
        withObservationTracking {
            draw()
        } onChange: {
            Task { @MainActor [weak self] in
                await self?.startListIfNeeded()
                self?.drawOnChange()
            }
        }
    }

    private func draw() {
        guard isRunning else { return }
        let (width, height) = terminal.size
        let lines: [String]
        switch router.appState.route {
        case .unlock:
            lines = unlockView.render(
                state: router.unlock?.state ?? .ready, typed: passphrase.count, width: width, height: height)
        case .add:
            guard let add = router.add else { return }
            lines = addView.render(add, width: width, height: height)
        case .detail:
            guard let detail = router.detail else { return }
            lines = detailView.render(detail, width: width, height: height)
        case .list:
            guard let list = router.list else { return }
            var chrome = self.chrome
            if let id = confirmingDelete, let row = list.state.value?.first(where: { $0.id == id }) {
                chrome.notice = "Delete \(row.issuer.isEmpty ? row.accountName : row.issuer)? y to confirm, any other key keeps it"
            } else {
                chrome.notice = list.notice ?? router.appState.notice
            }
            lines = listView.render(state: list.state, query: list.query, chrome: chrome, width: width, height: height)
        }
        Terminal.output("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
    }

    private func handle(_ key: Key) async {
        if key == .controlC || key == .controlD {
            isRunning = false
            return
        }
        switch router.appState.route {
        case .unlock: await handleUnlock(key)
        case .add: await handleAdd(key)
        case .list: await handleList(key)
        case .detail: await handleDetail(key)
        }
    }

    private func handleDetail(_ key: Key) async {
        guard let detail = router.detail else { return }
        switch key {
        case .escape: detail.close()
        case .tab, .down: detail.moveFocus(by: 1)
        case .up: detail.moveFocus(by: -1)
        case .backspace: detail.backspace()
        case .enter: await detail.save()
        case .character(let character): detail.type(String(character))
        default: break
        }
    }

    private func handleUnlock(_ key: Key) async {
        switch key {
        case .escape: isRunning = false
        case .backspace: if !passphrase.isEmpty { passphrase.removeLast() }
        case .character(let character): passphrase += Array(String(character).utf8)
        case .enter:
            guard let unlock = router.unlock else { return }
            let entered = passphrase
            wipePassphrase()
            await unlock.submit(entered)
        default: break
        }
    }

    private func handleAdd(_ key: Key) async {
        guard let add = router.add else { return }
        switch key {
        case .escape: add.cancel()
        case .tab, .down: add.moveFocus(by: 1)
        case .up: add.moveFocus(by: -1)
        case .backspace: add.backspace()
        case .enter: await add.save()
        case .character(" ") where [.kind, .algorithm].contains(add.focus): add.cycleChoice()
        case .character(let character): add.type(String(character))
        default: break
        }
    }

    private func handleList(_ key: Key) async {
        guard let list = router.list else { return }
        router.notify(nil)
        list.dismissNotice()
        let rows = list.state.value ?? []
        let selected = chrome.selectedIndex.flatMap { rows.indices.contains($0) ? rows[$0] : nil }
        if let id = confirmingDelete {
            confirmingDelete = nil
            if key == .character("y") { await list.delete(id) }
            return
        }
        if chrome.isSearching {
            switch key {
            case .enter, .down: chrome.isSearching = false
            case .escape:
                chrome.isSearching = false
                list.queryChanged("")
            case .backspace: list.queryChanged(String(list.query.dropLast()))
            case .character(let character): list.queryChanged(list.query + String(character))
            default: break
            }
            chrome.selectedIndex = 0
            return
        }
        switch key {
        case .character("q"): isRunning = false
        case .escape: if !list.query.isEmpty { list.queryChanged("") } else { isRunning = false }
        case .character("/"): chrome.isSearching = true
        case .up, .character("k"): chrome.selectedIndex = max(0, (chrome.selectedIndex ?? 0) - 1)
        case .down, .character("j"): chrome.selectedIndex = min(max(0, rows.count - 1), (chrome.selectedIndex ?? 0) + 1)
        case .enter, .character("c"): if let selected { await list.copyCode(for: selected.id) }
        case .character("a"), .character("+"): list.add()
        case .character("e"), .right: if let selected { list.showDetail(selected.id) }
        case .character("f"): if let selected { await list.toggleFavorite(selected.id) }
        case .character("K"), .character("J"):
            guard let selected else { return }
            await list.move(selected.id, by: key == .character("K") ? -1 : 1)
            if let index = list.state.value?.firstIndex(where: { $0.id == selected.id }) { chrome.selectedIndex = index }
        case .character("d"): confirmingDelete = selected?.id
        case .character("u"): await list.undoDelete()
        case .character("l"): await router.lock()
        default: break
        }
    }

    private func wipePassphrase() {
        for index in passphrase.indices { passphrase[index] = 0 }
        passphrase.removeAll()
    }
}
