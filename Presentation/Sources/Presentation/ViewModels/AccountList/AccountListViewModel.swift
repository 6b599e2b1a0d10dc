import Domain
import Foundation
import Observation

/// The account list: loads accounts, filters them as the user types (debounced), and keeps each
/// row's code and countdown current on the injected clocks. It knows nothing of any UI. Its parts
/// each do one job: `DebouncedSearch`, `AccountRows`, `CodeClipboard` and `AccountListEditing`.
@MainActor
@Observable
public final class AccountListViewModel {
    /// What the view model may ask the coordinator to do.
    public struct Actions {
        public let showAdd: @MainActor () -> Void
        public let showDetail: @MainActor (UUID) -> Void
        public init(showAdd: @escaping @MainActor () -> Void = {}, showDetail: @escaping @MainActor (UUID) -> Void = { _ in }) {
            self.showAdd = showAdd
            self.showDetail = showDetail
        }
    }

    /// The use cases the list reads codes and accounts with.
    public struct Reading {
        public let search: any SearchAccountsUseCase
        public let generateCodes: any GenerateCodesUseCase
        public let currentCode: any CurrentCodeUseCase
        public init(search: any SearchAccountsUseCase, generateCodes: any GenerateCodesUseCase, currentCode: any CurrentCodeUseCase) {
            self.search = search
            self.generateCodes = generateCodes
            self.currentCode = currentCode
        }
    }

    /// The use cases for changing accounts from the list (favourite, move, delete and undo).
    public struct Editing {
        let useCases: AccountListEditing.UseCases
        public init(
            update: any UpdateAccountUseCase, delete: any DeleteAccountUseCase, add: any AddAccountUseCase,
            move: any MoveAccountUseCase
        ) {
            useCases = .init(update: update, delete: delete, add: add, move: move)
        }
    }

    /// Tunable behaviour (from configuration).
    public struct Options: Sendable {
        /// Show the next code during the last seconds of a period.
        public var nextCodeWindow: Int
        /// Clear the clipboard this long after copying.
        public var clipboardTimeout: Duration
        /// How long typing must pause before the list follows the search text.
        public var debounce: Duration
        /// The rows given codes until the screen says which it shows (`showRows`): more than a
        /// terminal holds, so the first frame of a long list makes a screenful of codes, not all.
        public var firstRows: Int
        public init(
            nextCodeWindow: Int = 5, clipboardTimeout: Duration = .seconds(30), debounce: Duration = .milliseconds(250),
            firstRows: Int = 200
        ) {
            self.nextCodeWindow = nextCodeWindow
            self.clipboardTimeout = clipboardTimeout
            self.debounce = debounce
            self.firstRows = firstRows
        }
    }

    /// Output: a short message for the status line.
    public private(set) var notice: String?
    /// Output: the rows to show, as a Loadable.
    public private(set) var state: Loadable<[AccountRowViewModel]> = .notRequested
    /// Output: the query as typed (the filter applies once typing pauses).
    public private(set) var query = ""

    @ObservationIgnored private let reading: Reading
    @ObservationIgnored private let wallClock: any WallClock
    @ObservationIgnored private let scheduler: any Clock<Duration>
    @ObservationIgnored private let search: DebouncedSearch
    @ObservationIgnored private let rows: AccountRows
    @ObservationIgnored private let clipboard: CodeClipboard
    @ObservationIgnored private let editing: AccountListEditing
    @ObservationIgnored private let actions: Actions
    /// The accounts shown, and the HOTP codes asked for while the screen is open.
    @ObservationIgnored private var accounts: [Account] = []
    @ObservationIgnored private var requested: [UUID: GeneratedCode] = [:]
    /// The rows that get codes (by index in the rows): what the screen shows and a screenful on
    /// either side; the rest are `.offScreen`.
    @ObservationIgnored private var window: Range<Int>

    public init(
        reading: Reading, editing: Editing, clipboard: any Clipboard, wallClock: any WallClock,
        scheduler: any Clock<Duration>, options: Options = Options(), actions: Actions = Actions()
    ) {
        self.reading = reading
        self.wallClock = wallClock
        self.scheduler = scheduler
        self.search = DebouncedSearch(scheduler: scheduler, debounce: options.debounce)
        self.rows = AccountRows(nextCodeWindow: options.nextCodeWindow)
        self.clipboard = CodeClipboard(clipboard, scheduler: scheduler, timeout: options.clipboardTimeout)
        self.editing = AccountListEditing(editing.useCases)
        self.actions = actions
        self.window = 0..<max(0, options.firstRows)
    }

    /// Input: open the Add screen.
    public func add() { actions.showAdd() }

    /// Input: open an account's details.
    public func showDetail(_ id: UUID) { actions.showDetail(id) }

    /// Input: copy the row's code (an HOTP account gets its next code first), and clear the
    /// clipboard after the timeout.
    public func copyCode(for id: UUID) async {
        guard let index = state.value?.firstIndex(where: { $0.id == id }), let row = state.value?[index] else { return }
        if case .offScreen = row.display { showRows(index..<(index + 1)) }
        if case .onRequest = row.display { await generateCode(for: id) }
        guard let code = state.value?.first(where: { $0.id == id })?.code else { return }
        notice = clipboard.copy(code, of: Account.displayName(issuer: row.issuer, name: row.accountName)) { [weak self] in
            if self?.notice?.hasPrefix("Copied") == true { self?.notice = nil }
        }
    }

    /// Input: mark or unmark a favourite.
    public func toggleFavorite(_ id: UUID) async {
        guard let account = accounts.first(where: { $0.id == id }) else { return }
        await change { try await self.editing.toggleFavorite(account) }
    }

    /// Input: move an account one place up (-1) or down (+1) in the user's order.
    public func move(_ id: UUID, by offset: Int) async {
        await change { try await self.editing.move(id, by: offset) }
    }

    /// Input: delete an account (the view asked for confirmation); undo puts it back.
    public func delete(_ id: UUID) async {
        guard let account = accounts.first(where: { $0.id == id }) else { return }
        await change { self.notice = try await self.editing.delete(account) }
    }

    /// Input: undo the last delete, while the screen is open.
    public func undoDelete() async {
        await change { self.notice = try await self.editing.undoDelete() ?? self.notice }
    }

    /// Input: clear the status line.
    public func dismissNotice() { notice = nil }

    /// Input: load (or reload) the accounts matching the current query.
    public func load() async {
        state = .isLoading(last: state.value)
        do {
            accounts = try await reading.search.execute(query: query)
            refreshCodes()
        } catch {
            state = .failed(String(describing: error))
        }
    }

    /// Input: the search text changed. The list follows once typing pauses for the debounce time.
    @discardableResult
    public func queryChanged(_ text: String) -> Task<Void, Never> {
        query = text
        return search.schedule { await self.load() }
    }

    /// Input: recompute codes and countdowns for the current moment.
    public func refreshCodes() {
        let shown = window.clamped(to: accounts.indices)
        let codes = reading.generateCodes.execute(for: Array(accounts[shown]), at: wallClock.now())
        state = .loaded(
            accounts.indices.map { index in
                let account = accounts[index]
                guard shown.contains(index) else { return rows.offScreenRow(for: account) }
                return rows.row(for: account, code: codes[index - shown.lowerBound], requested: requested[account.id])
            })
    }

    /// Input: the rows the screen shows now (by index). They and a screenful on either side get
    /// codes from now on; a shown row without one gets it at once.
    public func showRows(_ shown: Range<Int>) {
        // Nothing shown (no rows yet, or none match): the window stays for the rows to come.
        guard !shown.isEmpty else { return }
        let margin = shown.count
        window = max(0, shown.lowerBound - margin)..<(shown.upperBound + margin)
        guard let current = state.value, current[shown.clamped(to: current.indices)].contains(where: { $0.display == .offScreen }) else {
            return
        }
        refreshCodes()
    }

    /// Input: generate the next code of a counter-based account. A failure is a notice: the
    /// list stays.
    public func generateCode(for id: UUID) async {
        guard let account = accounts.first(where: { $0.id == id }) else { return }
        do {
            let code = try await reading.currentCode.execute(for: account, at: wallClock.now())
            requested[id] = code
            if let index = accounts.firstIndex(where: { $0.id == id }), let counter = code.counter {
                accounts[index].kind = .hotp(counter: counter &+ 1)
            }
            refreshCodes()
        } catch {
            notice = "\(error)"
        }
    }

    /// Keeps codes current: refreshes at each whole second until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            refreshCodes()
            let seconds = wallClock.now().timeIntervalSince1970
            let untilNextSecond = 1 - (seconds - seconds.rounded(.down))
            do { try await scheduler.sleep(for: .milliseconds(Int((untilNextSecond * 1000).rounded(.up)))) } catch {
                return
            }
            await followChanges()
        }
    }

    /// Lists again, quietly, so a change made elsewhere (another `tokens` process, a sync) shows
    /// within a second. The screen's search is indexed: while the store's revision stays, this is
    /// one revision check. A failure keeps the list as it is (the next load says why).
    private func followChanges() async {
        guard state.value != nil, let fresh = try? await reading.search.execute(query: query), fresh != accounts else { return }
        accounts = fresh
    }

    /// Runs an edit, then reloads; a failure is a notice.
    private func change(_ edit: () async throws -> Void) async {
        do {
            try await edit()
            await load()
        } catch {
            notice = "\(error)"
        }
    }
}
