import Domain
import Foundation
import Observation

/// The account list: loads accounts, filters them as the user types (debounced), and keeps each
/// row's code and countdown current on the injected clocks. It knows nothing of any UI.
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

    /// Output: a short message for the status line.
    public private(set) var notice: String?
    /// Output: the rows to show, as a Loadable.
    public private(set) var state: Loadable<[AccountRowViewModel]> = .notRequested
    /// Output: the query as typed (the filter applies once typing pauses).
    public private(set) var query = ""

    @ObservationIgnored private let searchAccounts: any SearchAccountsUseCase
    @ObservationIgnored private let generateCodes: any GenerateCodesUseCase
    @ObservationIgnored private let currentCode: any CurrentCodeUseCase
    @ObservationIgnored private let wallClock: any WallClock
    @ObservationIgnored private let scheduler: any Clock<Duration>
    @ObservationIgnored private let debounce: Duration
    @ObservationIgnored private var accounts: [Account] = []
    @ObservationIgnored private var generated: [UUID: GeneratedCode] = [:]
    @ObservationIgnored private var pendingSearch: Task<Void, Never>?
    @ObservationIgnored private let editing: Editing?
    @ObservationIgnored private let clipboard: (any Clipboard)?
    @ObservationIgnored private let options: Options
    @ObservationIgnored private let actions: Actions
    @ObservationIgnored private var clearClipboard: Task<Void, Never>?
    @ObservationIgnored private var deleted: [Account] = []

    /// The use cases for changing accounts from the list (favourite, delete, undo).
    public struct Editing {
        public let update: any UpdateAccountUseCase
        public let delete: any DeleteAccountUseCase
        public let add: any AddAccountUseCase
        public let move: (any MoveAccountUseCase)?
        public init(
            update: any UpdateAccountUseCase, delete: any DeleteAccountUseCase, add: any AddAccountUseCase,
            move: (any MoveAccountUseCase)? = nil
        ) {
            self.update = update
            self.delete = delete
            self.add = add
            self.move = move
        }
    }

    /// Tunable behaviour (from configuration).
    public struct Options: Sendable {
        /// Show the next code during the last seconds of a period.
        public var nextCodeWindow: Int
        /// Clear the clipboard this long after copying.
        public var clipboardTimeout: Duration
        public init(nextCodeWindow: Int = 5, clipboardTimeout: Duration = .seconds(30)) {
            self.nextCodeWindow = nextCodeWindow
            self.clipboardTimeout = clipboardTimeout
        }
    }

    public init(
        searchAccounts: any SearchAccountsUseCase,
        generateCodes: any GenerateCodesUseCase,
        currentCode: any CurrentCodeUseCase,
        wallClock: any WallClock,
        scheduler: any Clock<Duration>,
        debounce: Duration = .milliseconds(250),
        editing: Editing? = nil,
        clipboard: (any Clipboard)? = nil,
        options: Options = Options(),
        actions: Actions = Actions()
    ) {
        self.searchAccounts = searchAccounts
        self.generateCodes = generateCodes
        self.currentCode = currentCode
        self.wallClock = wallClock
        self.scheduler = scheduler
        self.debounce = debounce
        self.editing = editing
        self.clipboard = clipboard
        self.options = options
        self.actions = actions
    }

    /// Input: open the Add screen.
    public func add() { actions.showAdd() }

    /// Input: open an account's details.
    public func showDetail(_ id: UUID) { actions.showDetail(id) }

    /// Input: copy the row's code (an HOTP account gets its next code first), and clear the
    /// clipboard after the timeout.
    public func copyCode(for id: UUID) async {
        guard let clipboard, let row = state.value?.first(where: { $0.id == id }) else { return }
        if case .onRequest = row.display { await generateCode(for: id) }
        guard let code = state.value?.first(where: { $0.id == id })?.code else { return }
        clipboard.copy(code.replacingOccurrences(of: " ", with: ""))
        let seconds = options.clipboardTimeout.components.seconds
        notice = "Copied the \(Account.displayName(issuer: row.issuer, name: row.accountName)) code; the clipboard clears in \(seconds) s"
        clearClipboard?.cancel()
        clearClipboard = Task { [scheduler, timeout = options.clipboardTimeout] in
            do { try await scheduler.sleep(for: timeout) } catch { return }
            clipboard.clear()
            if self.notice?.hasPrefix("Copied") == true { self.notice = nil }
        }
    }

    /// Input: mark or unmark a favourite.
    public func toggleFavorite(_ id: UUID) async {
        guard let editing, var account = accounts.first(where: { $0.id == id }) else { return }
        account.isFavorite.toggle()
        do {
            _ = try await editing.update.execute(account)
            await load()
        } catch {
            notice = "\(error)"
        }
    }

    /// Input: move an account one place up (-1) or down (+1) in the user's order.
    public func move(_ id: UUID, by offset: Int) async {
        guard let move = editing?.move else { return }
        do {
            try await move.execute(id: id, offset: offset)
            await load()
        } catch {
            notice = "\(error)"
        }
    }

    /// Input: delete an account (the view asked for confirmation); undo puts it back.
    public func delete(_ id: UUID) async {
        guard let editing, let account = accounts.first(where: { $0.id == id }) else { return }
        do {
            try await editing.delete.execute(id: id)
            deleted.append(account)
            notice = "Deleted \(account.displayName) (u to undo)"
            await load()
        } catch {
            notice = "\(error)"
        }
    }

    /// Input: undo the last delete, while the screen is open.
    public func undoDelete() async {
        guard let editing, let account = deleted.popLast() else { return }
        do {
            try await editing.add.restore(account)
            notice = "Restored \(account.displayName)"
            await load()
        } catch {
            notice = "\(error)"
        }
    }

    /// Input: clear the status line.
    public func dismissNotice() { notice = nil }

    /// Input: load (or reload) the accounts matching the current query.
    public func load() async {
        state = .isLoading(last: state.value)
        do {
            accounts = try await searchAccounts.execute(query: query)
            refreshCodes()
        } catch {
            state = .failed(String(describing: error))
        }
    }

    /// Input: the search text changed. The list follows once typing pauses for the debounce time.
    @discardableResult
    public func queryChanged(_ text: String) -> Task<Void, Never> {
        query = text
        pendingSearch?.cancel()
        let task = Task { [debounce, scheduler] in
            do { try await scheduler.sleep(for: debounce) } catch { return }
            await self.load()
        }
        pendingSearch = task
        return task
    }

    /// Input: recompute codes and countdowns for the current moment.
    public func refreshCodes() {
        let now = wallClock.now()
        let codes = generateCodes.execute(for: accounts, at: now)
        state = .loaded(zip(accounts, codes).map { account, code in row(for: account, code: code) })
    }

    /// Input: generate the next code of a counter-based account. A failure is a notice: the
    /// list stays.
    public func generateCode(for id: UUID) async {
        do {
            generated[id] = try await currentCode.execute(id: id, at: wallClock.now())
            if let index = accounts.firstIndex(where: { $0.id == id }), let counter = generated[id]?.counter {
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
        }
    }

    private func row(for account: Account, code: GeneratedCode) -> AccountRowViewModel {
        let display: AccountRowViewModel.CodeDisplay
        if let current = code.code, let next = code.nextCode, let seconds = code.secondsRemaining,
            let period = code.period
        {
            display = .timed(
                code: CodeFormatter.grouped(current), nextCode: CodeFormatter.grouped(next), secondsLeft: seconds,
                period: period)
        } else if let shown = generated[account.id], let value = shown.code, let counter = shown.counter {
            display = .generated(code: CodeFormatter.grouped(value), counter: counter)
        } else {
            display = .onRequest(counter: account.counter ?? 0)
        }
        let upcoming: String? =
            if case .timed(_, let next, let seconds, _) = display, seconds <= options.nextCodeWindow { next } else { nil }
        return AccountRowViewModel(
            id: account.id, issuer: account.issuer, accountName: account.name, isFavorite: account.isFavorite,
            display: display, upcoming: upcoming, group: account.groups.first)
    }
}
