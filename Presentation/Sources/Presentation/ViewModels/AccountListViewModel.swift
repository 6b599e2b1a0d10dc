import Domain
import Foundation
import Observation

/// The account list: loads accounts, filters them as the user types (debounced), and keeps each
/// row's code and countdown current on the injected clocks. It knows nothing of any UI.
@MainActor
@Observable
public final class AccountListViewModel {
    /// Output: the rows to show, as a Loadable.
    public private(set) var state: Loadable<[AccountRowViewModel]> = .notRequested
    /// Output: the query as typed (the filter applies once typing pauses).
    public private(set) var query = ""

    @ObservationIgnored private let searchAccounts: any SearchAccountsUseCase
    @ObservationIgnored private let generateCodes: any GenerateCodesUseCase
    @ObservationIgnored private let advanceHOTP: any AdvanceHOTPUseCase
    @ObservationIgnored private let wallClock: any WallClock
    @ObservationIgnored private let scheduler: any Clock<Duration>
    @ObservationIgnored private let debounce: Duration
    @ObservationIgnored private var accounts: [Account] = []
    @ObservationIgnored private var generated: [UUID: GeneratedCode] = [:]
    @ObservationIgnored private var pendingSearch: Task<Void, Never>?

    public init(
        searchAccounts: any SearchAccountsUseCase,
        generateCodes: any GenerateCodesUseCase,
        advanceHOTP: any AdvanceHOTPUseCase,
        wallClock: any WallClock,
        scheduler: any Clock<Duration>,
        debounce: Duration = .milliseconds(250)
    ) {
        self.searchAccounts = searchAccounts
        self.generateCodes = generateCodes
        self.advanceHOTP = advanceHOTP
        self.wallClock = wallClock
        self.scheduler = scheduler
        self.debounce = debounce
    }

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

    /// Input: generate the next code of a counter-based account.
    public func generateCode(for id: UUID) async {
        do {
            generated[id] = try await advanceHOTP.execute(id: id)
            if let index = accounts.firstIndex(where: { $0.id == id }), let counter = generated[id]?.counter {
                accounts[index].kind = .hotp(counter: counter &+ 1)
            }
            refreshCodes()
        } catch {
            state = .failed(String(describing: error))
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
        return AccountRowViewModel(
            id: account.id, issuer: account.issuer, accountName: account.name, isFavorite: account.isFavorite,
            display: display)
    }
}
