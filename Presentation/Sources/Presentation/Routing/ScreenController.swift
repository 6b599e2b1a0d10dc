import Domain
import Foundation

/// The interactive app between two key presses, and its key map: the selected row, search mode,
/// a delete waiting for its "y", the passphrase being typed. Each key becomes view-model inputs
/// here, so every screen transition can be tested without a terminal; TerminalUI only decodes
/// bytes into keys and draws what this and the view models show.
@MainActor
public final class ScreenController {
    public let router: AppRouter
    /// The selected account: the cursor follows it when its row moves (a favourite, J/K, an edit,
    /// another process's change), so the next key acts on the account the user chose.
    private var selectedID: UUID?
    /// Where the cursor was last put: the row it stays at when its account is gone (deleted).
    private var lastIndex = 0

    /// Output: the selected row of the list.
    public var selectedIndex: Int? {
        let rows = router.list?.state.value ?? []
        if let selectedID, let index = rows.firstIndex(where: { $0.id == selectedID }) { return index }
        return min(lastIndex, max(0, rows.count - 1))
    }
    /// Output: whether keys go to the search text.
    public private(set) var isSearching = false
    /// Output: false once the user quit.
    public private(set) var isRunning = true
    /// Output: the account whose delete waits for "y".
    public private(set) var confirmingDelete: UUID?
    /// Output: the list's keys, while `?` shows them (any key closes them).
    public private(set) var help: [ListKeys.Entry]?
    /// Output: the list's keys for this vault (`s` where it syncs, `l` where it can be locked).
    public var listKeys: [ListKeys.Entry] { ListKeys.entries(syncs: sync != nil, canLock: router.canLock) }
    private var passphrase: [UInt8] = []
    private var ticker: Task<Void, Never>?
    private weak var tickingList: AccountListViewModel?
    /// Sync on the list screen; nil when this vault does not sync.
    public let sync: SyncScheduler?

    public init(router: AppRouter, sync: SyncScheduler? = nil) {
        self.router = router
        self.sync = sync
    }

    /// Output: how many bytes of passphrase were typed (the screen shows that many dots).
    public var typedPassphraseLength: Int { passphrase.count }

    /// Output: the list's status line: the delete waiting for its "y", else the latest notice.
    public var listNotice: String? {
        if let id = confirmingDelete, let row = router.list?.state.value?.first(where: { $0.id == id }) {
            return "Delete \(Account.displayName(issuer: row.issuer, name: row.accountName))? y to confirm, any other key keeps it"
        }
        return router.list?.notice ?? router.appState.notice ?? sync?.status.notices.first
    }

    /// Starts the router and loads the first screen.
    public func start() async {
        router.start()
        await loadShownScreens()
    }

    /// Stops the list's ticking and wipes a half-typed passphrase.
    public func stop() {
        wipePassphrase()
        ticker?.cancel()
        ticker = nil
        sync?.stop()
    }

    /// Input: one key press.
    public func handle(_ key: Key) async {
        router.userActivity()
        if key == .controlC || key == .controlD {
            isRunning = false
            return
        }
        switch router.appState.route {
        case .unlock: await handleUnlock(key)
        case .add: await router.add?.handle(key)
        case .list: await handleList(key)
        case .detail: await router.detail?.handle(key)
        }
        if isRunning { await loadShownScreens() }
    }

    /// Loads a detail view model that was just shown, and a new list's accounts, keeping its
    /// codes ticking (the router makes a new list after an unlock).
    public func loadShownScreens() async {
        if let detail = router.detail, case .notRequested = detail.account { await detail.load() }
        guard let list = router.list else {
            ticker?.cancel()
            tickingList = nil
            sync?.stop()
            return
        }
        guard list !== tickingList else { return }
        tickingList = list
        ticker?.cancel()
        await list.load()
        ticker = Task { await list.run() }
        sync?.start { [weak list] in await list?.load() }
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

    private func handleList(_ key: Key) async {
        guard let list = router.list else { return }
        router.notify(nil)
        list.dismissNotice()
        sync?.status.dismissNotices()
        if help != nil {
            help = nil
            return
        }
        if let id = confirmingDelete {
            confirmingDelete = nil
            if key == .character("y") { await list.delete(id) }
            return
        }
        if isSearching {
            handleSearch(key, list)
            return
        }
        let rows = list.state.value ?? []
        let index = selectedIndex
        let selected = index.flatMap { rows.indices.contains($0) ? rows[$0] : nil }
        // The cursor holds on to the account under it, wherever its row goes next.
        if let index, let selected { select(index, in: rows, account: selected.id) }
        switch key {
        case .character("q"): isRunning = false
        case .escape: if !list.query.isEmpty { list.queryChanged("") } else { isRunning = false }
        case .character("/"): isSearching = true
        case .up, .character("k"): select(max(0, (selectedIndex ?? 0) - 1), in: rows)
        case .down, .character("j"): select(min(max(0, rows.count - 1), (selectedIndex ?? 0) + 1), in: rows)
        case .enter, .character("c"): if let selected { await list.copyCode(for: selected.id) }
        case .character("n"):
            guard let selected else { return }
            switch selected.display {
            case .onRequest, .generated: await list.generateCode(for: selected.id)
            case .timed: router.notify("n makes the next code of an HOTP (counter) account; this one's code changes by itself")
            case .offScreen: break
            }
        case .character("?"): help = listKeys
        case .character("a"), .character("+"): list.add()
        case .character("e"), .right: if let selected { list.showDetail(selected.id) }
        case .character("f"): if let selected { await list.toggleFavorite(selected.id) }
        case .character("K"), .character("J"):
            guard let selected else { return }
            await list.move(selected.id, by: key == .character("K") ? -1 : 1)
        case .character("d"): confirmingDelete = selected?.id
        case .character("u"): await list.undoDelete()
        case .character("l"):
            guard router.canLock else {
                router.notify("Nothing to lock: these accounts have no passphrase (DEV keeps them in memory)")
                return
            }
            await router.lock()
        case .character("s"):
            await sync?.status.syncNow()
            await list.load()
        default: break
        }
    }

    private func handleSearch(_ key: Key, _ list: AccountListViewModel) {
        switch key {
        case .enter, .down: isSearching = false
        case .escape:
            isSearching = false
            list.queryChanged("")
        case .backspace: list.queryChanged(String(list.query.dropLast()))
        case .character(let character): list.queryChanged(list.query + String(character))
        default: break
        }
        selectedID = nil
        lastIndex = 0
    }

    /// Puts the cursor on row `index` and on its account (`account`, or the row's).
    private func select(_ index: Int, in rows: [AccountRowViewModel], account: UUID? = nil) {
        lastIndex = index
        selectedID = account ?? (rows.indices.contains(index) ? rows[index].id : nil)
    }

    private func wipePassphrase() {
        for index in passphrase.indices { passphrase[index] = 0 }
        passphrase.removeAll()
    }
}
