import Domain
import DomainTestSupport
import Foundation
import Presentation
import PresentationTestSupport
import Testing

/// Every screen transition and list key, headless: keys go in, the router's route and the
/// controller's outputs come out. No terminal is involved.
@MainActor
@Suite("Screen controller: the key map and screen transitions")
struct ScreenControllerTests {
    let clock = TestClock(start: Date(timeIntervalSince1970: 26))

    func makeController(
        locked: Bool = false, accounts: [Account] = [.row(1, issuer: "GitHub"), .row(2, issuer: "Bank"), .row(3, issuer: "Mail")]
    ) async -> (ScreenController, TestScreenFactory) {
        let factory = TestScreenFactory(lock: TestLock(requiresUnlock: locked), accounts: accounts, clock: clock)
        let controller = ScreenController(
            router: AppRouter(appState: AppState(), factory: factory, scheduler: clock, idleTimeout: .seconds(120)))
        await controller.start()
        return (controller, factory)
    }

    func type(_ text: String, into controller: ScreenController) async {
        for character in text { await controller.handle(.character(character)) }
    }

    var issuers: (ScreenController) -> [String] { { $0.router.list?.state.value?.map(\.issuer) ?? [] } }

    @Test("Unlock: typed bytes are counted, backspace takes one back, a wrong passphrase stays, the right one opens the list")
    func unlock() async {
        let (controller, _) = await makeController(locked: true)
        defer { controller.stop() }
        #expect(controller.router.appState.route == .unlock)
        await type("wrongx", into: controller)
        await controller.handle(.backspace)
        #expect(controller.typedPassphraseLength == 5)
        await controller.handle(.enter)
        #expect(controller.router.appState.route == .unlock && controller.typedPassphraseLength == 0)
        await type("right", into: controller)
        await controller.handle(.enter)
        #expect(controller.router.appState.route == .list)
        #expect(issuers(controller) == ["GitHub", "Bank", "Mail"])  // loaded by the controller
    }

    @Test("selection moves with j/k and arrows and stays within the rows")
    func selection() async {
        let (controller, _) = await makeController()
        defer { controller.stop() }
        await controller.handle(.character("k"))
        #expect(controller.selectedIndex == 0)
        for key in [Key.character("j"), .down, .down, .down] { await controller.handle(key) }
        #expect(controller.selectedIndex == 2)
        await controller.handle(.up)
        #expect(controller.selectedIndex == 1)
    }

    @Test("/ starts a search that takes the keys; Enter keeps the query, Escape clears it")
    func search() async {
        let (controller, _) = await makeController()
        defer { controller.stop() }
        await controller.handle(.character("/"))
        await type("bq", into: controller)
        await controller.handle(.backspace)
        #expect(controller.isSearching && controller.router.list?.query == "b")
        await controller.handle(.enter)
        #expect(!controller.isSearching && controller.router.list?.query == "b")
        await controller.handle(.character("q"))  // not in search mode any more: q quits
        #expect(!controller.isRunning)
        let (again, _) = await makeController()
        defer { again.stop() }
        await again.handle(.character("/"))
        await type("x", into: again)
        await again.handle(.escape)
        #expect(!again.isSearching && again.router.list?.query == "")
    }

    @Test("d asks first: any key but y keeps the account, y deletes it, u brings it back")
    func deleteWithConfirmation() async {
        let (controller, factory) = await makeController()
        defer { controller.stop() }
        await controller.handle(.character("d"))
        #expect(controller.listNotice == "Delete GitHub (user)? y to confirm, any other key keeps it")
        await controller.handle(.character("n"))
        #expect(factory.search.all.count == 3 && controller.listNotice == nil)
        await controller.handle(.character("d"))
        await controller.handle(.character("y"))
        #expect(issuers(controller) == ["Bank", "Mail"])
        #expect(controller.listNotice == "Deleted GitHub (user) (u to undo)")
        await controller.handle(.character("u"))
        #expect(factory.search.all.count == 3)
    }

    @Test("K and J move the selected account, and the selection follows it; f marks a favourite")
    func moveAndFavourite() async {
        let (controller, factory) = await makeController()
        defer { controller.stop() }
        await controller.handle(.character("J"))
        #expect(issuers(controller) == ["Bank", "GitHub", "Mail"])
        #expect(controller.selectedIndex == 1)
        await controller.handle(.character("K"))
        #expect(issuers(controller) == ["GitHub", "Bank", "Mail"] && controller.selectedIndex == 0)
        await controller.handle(.character("f"))
        #expect(factory.search.all.first?.isFavorite == true)
    }

    @Test("the cursor follows its account when its row moves (a change made elsewhere), and the next d asks for that account")
    func cursorFollowsTheAccount() async {
        let (controller, factory) = await makeController()
        defer { controller.stop() }
        await controller.handle(.character("j"))
        await controller.handle(.character("j"))
        #expect(controller.selectedIndex == 2)
        factory.search.send(factory.search.all.reversed())
        await controller.router.list?.load()
        #expect(issuers(controller) == ["Mail", "Bank", "GitHub"])
        #expect(controller.selectedIndex == 0)
        await controller.handle(.character("d"))
        #expect(controller.listNotice?.hasPrefix("Delete Mail") == true)
        await controller.handle(.character("y"))
        #expect(issuers(controller) == ["Bank", "GitHub"])
        // Its account gone, the cursor stays where it was: on the row that took its place.
        #expect(controller.selectedIndex == 0)
    }

    @Test("a opens Add and e opens the detail; Escape goes back to the list from each")
    func addAndDetail() async {
        let (controller, _) = await makeController()
        defer { controller.stop() }
        await controller.handle(.character("a"))
        #expect(controller.router.appState.route == .add)
        await controller.handle(.escape)
        #expect(controller.router.appState.route == .list)
        await controller.handle(.character("e"))
        #expect(controller.router.appState.route == .detail(Account.row(1, issuer: "").id))
        #expect(controller.router.detail?.text(of: .issuer) == "GitHub")  // loaded by the controller
        await controller.handle(.escape)
        #expect(controller.router.appState.route == .list)
    }

    @Test("l locks to Unlock; where there is no passphrase (DEV) it says so and stays; Control-C, Escape with no query, and q quit")
    func lockAndQuit() async {
        let (locked, _) = await makeController(locked: true)
        defer { locked.stop() }
        await type("right", into: locked)
        await locked.handle(.enter)
        await locked.handle(.character("l"))
        #expect(locked.router.appState.route == .unlock && locked.router.list == nil)
        let (open, _) = await makeController(locked: false)
        defer { open.stop() }
        await open.handle(.character("l"))
        #expect(open.router.appState.route == .list && open.router.list != nil)
        #expect(open.listNotice?.hasPrefix("Nothing to lock") == true)
        for key in [Key.controlC, .escape, .character("q")] {
            let (controller, _) = await makeController()
            await controller.handle(key)
            #expect(!controller.isRunning, "\(key)")
            controller.stop()
        }
    }

    @Test("sync: once when the list opens (after Unlock) and every interval; s syncs at once; a lock stops it; its notices show")
    func sync() async {
        let factory = TestScreenFactory(lock: TestLock(requiresUnlock: true), accounts: [.row(1, issuer: "GitHub")], clock: clock)
        var report = SyncReport()
        report.conflictCopies = [UUID()]
        let scripted = SyncStatusViewModelTests.ScriptedSync(.success(report))
        let status = SyncStatusViewModel(sync: scripted, local: InMemorySyncLocalStore(), clock: clock.wallClock)
        // A clock of its own, so the test can wait for exactly the scheduler's sleep.
        let syncClock = TestClock()
        let scheduler = SyncScheduler(status: status, interval: .seconds(60), clock: syncClock)
        let controller = ScreenController(
            router: AppRouter(appState: AppState(), factory: factory, scheduler: clock, idleTimeout: .seconds(120)), sync: scheduler)
        await controller.start()
        defer { controller.stop() }
        #expect(!scheduler.isScheduled && scripted.calls.withLock { $0 } == 0, "no sync while locked")
        await type("right", into: controller)
        await controller.handle(.enter)
        #expect(await eventually { scripted.calls.withLock { $0 } == 1 })
        #expect(await eventually { controller.listNotice?.contains("key changed on two machines") == true })
        await syncClock.waitForSleepers(1)
        syncClock.advance(by: .seconds(59))
        #expect(scripted.calls.withLock { $0 } == 1)
        syncClock.advance(by: .seconds(1))
        #expect(await eventually { scripted.calls.withLock { $0 } == 2 })
        await controller.handle(.character("s"))
        #expect(scripted.calls.withLock { $0 } == 3)
        await controller.handle(.character("l"))
        #expect(controller.router.appState.route == .unlock && !scheduler.isScheduled)
    }

    @Test("? shows the list's keys (s and l only where they work); the next key only closes them, q included")
    func helpOverlay() async {
        let (controller, _) = await makeController()
        defer { controller.stop() }
        await controller.handle(.character("?"))
        let keys = controller.help?.map(\.keys) ?? []
        // These accounts have no passphrase and the vault does not sync: no l, no s.
        #expect(keys.contains("n") && keys.contains("?") && !keys.contains("l") && !keys.contains("s"), "\(keys)")
        await controller.handle(.character("q"))
        #expect(controller.help == nil && controller.isRunning)
        await controller.handle(.character("q"))
        #expect(!controller.isRunning)
    }

    @Test("n makes an HOTP account's next code (its counter shown); on a TOTP account it says what n is for")
    func nextHOTPCode() async {
        let (controller, _) = await makeController(accounts: [.row(1, issuer: "Bank", kind: .hotp(counter: 4)), .row(2, issuer: "Mail")])
        defer { controller.stop() }
        let display = { controller.router.list?.state.value?.first?.display }
        #expect(display() == .onRequest(counter: 4))
        await controller.handle(.character("n"))
        guard case .generated(let first, 4) = display() else {
            Issue.record("no code for counter 4: \(String(describing: display()))")
            return
        }
        await controller.handle(.character("n"))
        guard case .generated(let second, 5) = display() else {
            Issue.record("no code for counter 5: \(String(describing: display()))")
            return
        }
        #expect(first != second)
        await controller.handle(.character("j"))
        await controller.handle(.character("n"))
        #expect(controller.listNotice?.contains("n makes the next code of an HOTP") == true, "\(controller.listNotice ?? "")")
    }

    @Test("in a form, Tab moves to the next field and Shift-Tab back")
    func backTab() async throws {
        let (controller, _) = await makeController()
        defer { controller.stop() }
        await controller.handle(.character("a"))
        let add = try #require(controller.router.add)
        await controller.handle(.tab)
        await controller.handle(.tab)
        #expect(add.focus == .account)
        await controller.handle(.backTab)
        #expect(add.focus == .issuer)
    }
}
