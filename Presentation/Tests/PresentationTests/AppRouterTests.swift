import Domain
import DomainTestSupport
import Foundation
import Presentation
import PresentationTestSupport
import Testing

@MainActor
@Suite("Router, AppState and the screens' view models")
struct AppRouterTests {
    let clock = TestClock(start: Date(timeIntervalSince1970: 26))
    let lock = TestLock()

    func makeRouter(lock: TestLock? = nil) -> (AppRouter, TestScreenFactory) {
        let factory = TestScreenFactory(
            lock: lock ?? self.lock, accounts: [.row(1, issuer: "GitHub"), .row(2, issuer: "Bank", kind: .hotp(counter: 3))],
            clock: clock)
        return (AppRouter(appState: AppState(), factory: factory, scheduler: clock, idleTimeout: .seconds(120)), factory)
    }

    @Test("a locked store starts on Unlock; the right passphrase goes to the list")
    func unlockTransition() async {
        let (router, _) = makeRouter()
        router.start()
        #expect(router.appState.route == .unlock && router.appState.isLocked)
        #expect(router.list == nil)
        await router.unlock?.submit(Array("right".utf8))
        #expect(router.appState.route == .list && !router.appState.isLocked)
        #expect(router.unlock == nil && router.list != nil)
        #expect(!lock.isLocked)
    }

    @Test("unlocked before start (a passphrase file or variable): the list at once, and idling still locks to Unlock")
    func unlockedBeforeStart() async throws {
        let (router, _) = makeRouter()
        try await lock.unlock(passphrase: Array("right".utf8))
        router.unlockedBeforeStart = true
        router.start()
        #expect(router.appState.route == .list && !router.appState.isLocked && router.unlock == nil)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(120))
        _ = await eventually { router.appState.route == .unlock }
        #expect(router.appState.route == .unlock && lock.isLocked)
    }

    @Test("DEV (no lock) starts on the list")
    func devStartsOnList() {
        let (router, _) = makeRouter(lock: TestLock(requiresUnlock: false))
        router.start()
        #expect(router.appState.route == .list && router.list != nil)
    }

    @Test("wrong passphrases say so; from the third, each retry waits longer on the clock")
    func throttle() async throws {
        let (router, _) = makeRouter()
        router.start()
        let unlock = try #require(router.unlock)
        await unlock.submit(Array("nope".utf8))
        #expect(unlock.state == .failed("wrong passphrase"))
        await unlock.submit(Array("nope".utf8))
        let third = Task { await unlock.submit(Array("nope".utf8)) }
        await clock.waitForSleepers(1)
        #expect(unlock.state == .waiting("wrong passphrase", seconds: 1))
        await unlock.submit(Array("right".utf8))  // refused while waiting
        #expect(router.appState.route == .unlock)
        clock.advance(by: .seconds(1))
        await third.value
        #expect(unlock.state == .failed("wrong passphrase"))
        #expect(UnlockThrottle.delay(afterFailures: 4) == .seconds(2))
        #expect(UnlockThrottle.delay(afterFailures: 40) == .seconds(30))
        await unlock.submit(Array("right".utf8))
        #expect(router.appState.route == .list)
    }

    @Test("idle for the timeout: the store locks, the list's data is dropped, Unlock shows")
    func idleLock() async throws {
        let (router, _) = makeRouter()
        router.start()
        await router.unlock?.submit(Array("right".utf8))
        await router.list?.load()
        #expect(router.list?.state.value?.count == 2)
        clock.advance(by: .seconds(100))
        router.userActivity()  // a key press pushes the lock back
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(119))
        #expect(router.appState.route == .list)
        clock.advance(by: .seconds(1))
        _ = await eventually { router.appState.route == .unlock }
        #expect(router.appState.route == .unlock && router.appState.isLocked)
        #expect(router.list == nil)
        #expect(lock.isLocked && lock.lockCount == 1)
    }

    @Test("list → Add → save goes back to the list with the new account; cancel goes back too")
    func addFlow() async throws {
        let (router, factory) = makeRouter(lock: TestLock(requiresUnlock: false))
        router.start()
        router.list?.add()
        #expect(router.appState.route == .add)
        let add = try #require(router.add)
        add.type("otpauth://totp/New:me?secret=JBSWY3DPEHPK3P")
        #expect(add.validationMessage == "secret: invalid Base32 length (14 symbols): the text looks truncated")
        add.type("XP")
        #expect(add.validationMessage == nil)
        await add.save()
        #expect(router.appState.route == .list)
        #expect(router.appState.notice == "Added New (me)")
        #expect(factory.add.accounts.map(\.issuer) == ["New"])
        router.list?.add()
        router.add?.cancel()
        #expect(router.appState.route == .list && router.add == nil)
    }

    @Test("the Add form validates each field live with Domain's messages")
    func addFields() async throws {
        let (router, factory) = makeRouter(lock: TestLock(requiresUnlock: false))
        router.start()
        router.list?.add()
        let add = try #require(router.add)
        add.moveFocus(to: .issuer)
        add.type("ACME")
        #expect(add.validationMessage == "secret: a secret is required")
        add.moveFocus(to: .secret)
        add.type("JBSW1")
        #expect(add.validationMessage == "secret: invalid Base32 character at position 5 (use A–Z and 2–7)")
        add.backspace()
        add.type("Y3DP")
        #expect(add.validationMessage == nil)
        add.moveFocus(to: .kind)
        add.cycleChoice()
        #expect(add.text(of: .kind) == "HOTP")
        add.moveFocus(to: .digits)
        add.backspace()
        add.type("5")
        #expect(add.validationMessage == "digits: 5 is not allowed (use 6 to 10)")
        add.backspace()
        add.type("8")
        await add.save()
        #expect(factory.add.accounts.first?.kind == .hotp(counter: 0))
        #expect(factory.add.accounts.first?.digits == 8)
    }

    @Test(
        "the Add form: no error before any input; Backspace leaves a choice; Steam shows its 5 digits; a pasted URI fills the fields and shows its secret as dots"
    )
    func addFormDetails() async throws {
        let (router, _) = makeRouter(lock: TestLock(requiresUnlock: false))
        router.start()
        router.list?.add()
        let add = try #require(router.add)
        #expect(!add.touched && add.validationMessage == "secret: a secret is required")
        add.moveFocus(to: .kind)
        add.backspace()
        #expect(add.text(of: .kind) == "TOTP" && !add.touched)
        add.cycleChoice()
        add.cycleChoice()
        #expect(add.text(of: .kind) == "STEAM" && add.text(of: .digits) == "5 (Steam)" && add.touched)

        add.moveFocus(to: .uri)
        add.type("otpauth://hotp/ACME:alice?secret=JBSWY3DPEHPK3PXP&counter=7&digits=8")
        #expect(add.validationMessage == nil)
        #expect(add.text(of: .uri) == "otpauth://hotp/ACME:alice?secret=••••••••••••••••&counter=7&digits=8")
        #expect(add.text(of: .issuer) == "ACME" && add.text(of: .account) == "alice" && add.text(of: .secret) == "JBSWY3DPEHPK3PXP")
        #expect(add.text(of: .kind) == "HOTP" && add.text(of: .digits) == "8" && add.text(of: .periodOrCounter) == "7")
    }

    @Test("copy puts the code on the clipboard and clears it after the timeout; HOTP is generated first")
    func copy() async throws {
        let (router, factory) = makeRouter(lock: TestLock(requiresUnlock: false))
        router.start()
        let list = try #require(router.list)
        await list.load()
        await list.copyCode(for: Account.row(1, issuer: "").id)
        #expect(factory.clipboard.contents == "000000")
        #expect(list.notice == "Copied the GitHub (user) code; the clipboard clears in 30 s")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        _ = await eventually { factory.clipboard.contents == nil }
        #expect(factory.clipboard.contents == nil)
        #expect(list.notice == nil)
    }

    @Test("a clipboard's caveat (tmux without set-clipboard on) comes with the first copy's notice only")
    func clipboardCaveat() async throws {
        let (router, factory) = makeRouter(lock: TestLock(requiresUnlock: false))
        factory.clipboard = TestClipboard(caveat: "in tmux: set-clipboard on")
        router.start()
        let list = try #require(router.list)
        await list.load()
        await list.copyCode(for: Account.row(1, issuer: "").id)
        #expect(list.notice == "Copied the GitHub (user) code; the clipboard clears in 30 s (in tmux: set-clipboard on)")
        await list.copyCode(for: Account.row(1, issuer: "").id)
        #expect(list.notice == "Copied the GitHub (user) code; the clipboard clears in 30 s")
    }

    @Test("the next code shows during the last 5 seconds of a period")
    func nextCode() async throws {
        let (router, _) = makeRouter(lock: TestLock(requiresUnlock: false))
        router.start()
        let list = try #require(router.list)
        await list.load()  // t = 26: 4 s left
        #expect(list.state.value?.first?.upcoming == "000 001")
        clock.advance(by: .seconds(5))  // t = 31: 29 s left
        list.refreshCodes()
        #expect(list.state.value?.first?.upcoming == nil)
    }

    @Test("the detail screen of the fully populated account: every field it shows is the account's, and saving unchanged keeps every field")
    func detailEveryField() async throws {
        let search = TestSearchAccountsUseCase([Account.fullyPopulated])
        final class Saved { var value: Account? }
        let saved = Saved()
        let detail = AccountDetailViewModel(
            id: Account.fullyPopulated.id, listAccounts: SearchAsList(search: search), update: TestUpdateAccountUseCase(search: search),
            actions: .init(saved: { saved.value = $0 }, close: {}))
        await detail.load()
        let full = Account.fullyPopulated
        #expect(
            AccountDetailViewModel.Field.allCases.map { detail.text(of: $0) } == [
                full.issuer, full.name, full.note, AccountText.groupList(full.groups), full.isFavorite ? "yes" : "no",
            ])
        await detail.save()
        #expect(saved.value == full)
        #expect(search.all == [full])
    }

    @Test("list → detail: edit the note and favourite, save goes back with a notice; a bad edit shows Domain's message")
    func detailFlow() async throws {
        let (router, factory) = makeRouter(lock: TestLock(requiresUnlock: false))
        router.start()
        let id = Account.row(1, issuer: "").id
        router.list?.showDetail(id)
        #expect(router.appState.route == .detail(id))
        let detail = try #require(router.detail)
        await detail.load()
        #expect(detail.text(of: .issuer) == "GitHub")
        detail.moveFocus(to: .note)
        detail.type("work laptop")
        detail.moveFocus(to: .favorite)
        detail.type(" ")
        #expect(detail.isFavorite)
        // Round the fields backwards, twice past the first, to the issuer: the focus wraps.
        detail.moveFocus(by: -(2 * AccountDetailViewModel.Field.allCases.count + detail.focus.rawValue))
        #expect(detail.focus == .issuer)
        for _ in 0..<6 { detail.backspace() }
        detail.moveFocus(to: .account)
        for _ in 0..<4 { detail.backspace() }
        await detail.save()
        #expect(detail.error == "account: an issuer or an account name is required")
        detail.type("me")
        await detail.save()
        #expect(router.appState.route == .list)
        #expect(router.appState.notice == "Saved me")
        let saved = try #require(factory.search.all.first { $0.id == id })
        #expect(saved.note == "work laptop" && saved.isFavorite && saved.name == "me")
        router.list?.showDetail(id)
        router.detail?.close()
        #expect(router.appState.route == .list && router.detail == nil)
    }

    @Test("lock on request drops the list at once")
    func lockNow() async {
        let (router, _) = makeRouter()
        router.start()
        await router.unlock?.submit(Array("right".utf8))
        await router.lock()
        #expect(router.appState.route == .unlock && router.list == nil && lock.isLocked)
    }

    @Test("from the list, headless: favourite, move, and delete with undo, each with its notice")
    func listEditing() async throws {
        let (router, factory) = makeRouter(lock: TestLock(requiresUnlock: false))
        router.start()
        let list = try #require(router.list)
        await list.load()
        let github = Account.row(1, issuer: "").id
        await list.toggleFavorite(github)
        #expect(factory.search.all.first { $0.id == github }?.isFavorite == true)
        #expect(list.state.value?.first?.isFavorite == true)
        await list.move(github, by: 1)
        #expect(list.state.value?.map(\.issuer) == ["Bank", "GitHub"])
        await list.delete(github)
        #expect(list.state.value?.map(\.issuer) == ["Bank"])
        #expect(list.notice == "Deleted GitHub (user) (u to undo)")
        await list.undoDelete()
        #expect(list.notice == "Restored GitHub (user)")
        #expect(Set(list.state.value?.map(\.issuer) ?? []) == ["Bank", "GitHub"])
        await list.delete(UUID())  // not in the list: nothing happens
        #expect(list.state.value?.count == 2)
    }
}
