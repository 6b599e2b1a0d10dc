import Domain
import Foundation
import Presentation
import PresentationTestSupport
import Testing

@MainActor
@Suite("Account list view model")
struct AccountListViewModelTests {
    let clock = TestClock(start: Date(timeIntervalSince1970: 59))
    let search = TestSearchAccountsUseCase([
        .row(1, issuer: "GitHub", name: "octocat"),
        .row(2, issuer: "Google", name: "me@gmail.com", isFavorite: true),
        .row(3, issuer: "Crédit Agricole", note: "bank"),
        .row(4, issuer: "Counter", kind: .hotp(counter: 7)),
        .row(5, issuer: "Long", digits: 8),
    ])
    let advance = TestCurrentCodeUseCase(counters: [Account.row(4, issuer: "").id: 7])

    func makeViewModel() -> AccountListViewModel {
        let add = TestAddAccountUseCase(search: search)
        return AccountListViewModel(
            reading: .init(
                search: search, generateCodes: DefaultGenerateCodesUseCase(hmac: CounterEchoHMAC()), currentCode: advance),
            editing: .init(
                update: TestUpdateAccountUseCase(search: search), delete: TestDeleteAccountUseCase(search: search),
                add: add, move: TestMoveAccountUseCase(search: search)),
            clipboard: TestClipboard(), wallClock: clock.wallClock, scheduler: clock)
    }

    @Test("starts not requested, then loads rows with grouped codes and seconds left")
    func load() async {
        let viewModel = makeViewModel()
        #expect(viewModel.state == .notRequested)
        await viewModel.load()
        let rows = viewModel.state.value ?? []
        #expect(rows.map(\.issuer) == ["GitHub", "Google", "Crédit Agricole", "Counter", "Long"])
        // t = 59 s, period 30: time step 1, one second left; CounterEchoHMAC makes code = step.
        #expect(rows[0].display == .timed(code: "000 001", nextCode: "000 002", secondsLeft: 1, period: 30))
        #expect(rows[4].code == "0000 0001")
        #expect(rows[3].display == .onRequest(counter: 7))
    }

    @Test("a failed load shows the error's message")
    func failure() async {
        search.failNext(with: RepositoryError.notFound(UUID()))
        let viewModel = makeViewModel()
        await viewModel.load()
        #expect(viewModel.state.failureMessage == "no such account")
    }

    @Test("codes and countdowns follow the injected clock, a refresh each second")
    func ticks() async {
        await ticking { viewModel in
            #expect(viewModel.state.value?.first?.secondsLeft == 1)
            await tick()
            #expect(viewModel.state.value?.first?.display == .timed(code: "000 002", nextCode: "000 003", secondsLeft: 30, period: 30))
            await tick()
            #expect(viewModel.state.value?.first?.secondsLeft == 29)
        }
    }

    /// A loaded view model with its ticker running (asleep until the next second) for `body`.
    func ticking(_ body: (AccountListViewModel) async -> Void) async {
        let viewModel = makeViewModel()
        await viewModel.load()
        let running = Task { await viewModel.run() }
        await clock.waitForSleepers(1)
        await body(viewModel)
        running.cancel()
        await running.value
    }

    /// One second on the clock, and the ticker asleep again after its tick.
    func tick() async {
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
    }

    @Test("a change made elsewhere (another process, a sync) shows at the next second's tick, without a keystroke")
    func followsChanges() async {
        await ticking { viewModel in
            search.send(search.all + [.row(6, issuer: "Added elsewhere")])
            #expect(viewModel.state.value?.count == 5)
            await tick()
            #expect(viewModel.state.value?.last?.issuer == "Added elsewhere")
        }
    }

    @Test("search is debounced: only the last query of a burst runs, after the pause")
    func debounce() async {
        let viewModel = makeViewModel()
        await viewModel.load()
        viewModel.queryChanged("g")
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(100))
        viewModel.queryChanged("gi")
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(100))
        let last = viewModel.queryChanged("git")
        #expect(viewModel.query == "git")
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(249))
        #expect(search.queries == [""])
        clock.advance(by: .milliseconds(1))
        await last.value
        #expect(search.queries == ["", "git"])
        #expect(viewModel.state.value?.map(\.issuer) == ["GitHub"])
    }

    @Test("search ignores case and accents, through Domain's query")
    func accentInsensitive() async {
        let viewModel = makeViewModel()
        let task = viewModel.queryChanged("CREDIT")
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(250))
        await task.value
        #expect(viewModel.state.value?.map(\.issuer) == ["Crédit Agricole"])
    }

    @Test("Enter on an HOTP row generates its code and moves the counter on")
    func hotp() async {
        let viewModel = makeViewModel()
        await viewModel.load()
        let id = Account.row(4, issuer: "").id
        await viewModel.generateCode(for: id)
        #expect(viewModel.state.value?[3].display == .generated(code: "000 007", counter: 7))
        await viewModel.generateCode(for: id)
        #expect(viewModel.state.value?[3].display == .generated(code: "000 008", counter: 8))
    }

    @Test("an HOTP code that cannot be made is a notice: the list stays")
    func hotpFailure() async {
        let viewModel = makeViewModel()
        await viewModel.load()
        advance.failNext(with: RepositoryError.notFound(Account.row(4, issuer: "").id))
        await viewModel.generateCode(for: Account.row(4, issuer: "").id)
        #expect(viewModel.notice == "no such account")
        #expect(viewModel.state.value?.count == 5)
        #expect(viewModel.state.value?[3].display == .onRequest(counter: 7))
    }
}
