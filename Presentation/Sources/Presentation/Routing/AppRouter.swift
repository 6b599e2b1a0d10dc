import Domain
import Foundation
import Observation

/// The coordinator: decides which screen shows, makes its view model through the factory, hands
/// each view model the actions it may take, and locks the store after the idle timeout.
@MainActor
@Observable
public final class AppRouter {
    public let appState: AppState
    /// The view model of each screen, while it exists. Locking drops them all.
    public private(set) var unlock: UnlockViewModel?
    public private(set) var list: AccountListViewModel?
    public private(set) var add: AddAccountViewModel?
    public private(set) var detail: AccountDetailViewModel?

    @ObservationIgnored private let factory: any ScreenFactory
    @ObservationIgnored private let scheduler: any Clock<Duration>
    @ObservationIgnored private let idleTimeout: Duration
    @ObservationIgnored private var idleTask: Task<Void, Never>?

    public init(
        appState: AppState, factory: any ScreenFactory, scheduler: any Clock<Duration>,
        idleTimeout: Duration = .seconds(120)
    ) {
        self.appState = appState
        self.factory = factory
        self.scheduler = scheduler
        self.idleTimeout = idleTimeout
    }

    /// Set before `start` when the store was unlocked already (a passphrase file or variable
    /// was given): the list shows at once, and idle locking still leads to Unlock.
    public var unlockedBeforeStart = false

    /// The first screen: Unlock when the store is locked, else the list.
    public func start() {
        if factory.accountStoreLock.requiresUnlock, !unlockedBeforeStart {
            showUnlock()
        } else {
            appState.isLocked = false
            showList()
            userActivity()
        }
    }

    /// Every key press counts as activity and pushes the idle lock back.
    public func userActivity() {
        idleTask?.cancel()
        guard factory.accountStoreLock.requiresUnlock, !appState.isLocked else { return }
        idleTask = Task { [scheduler, idleTimeout] in
            do { try await scheduler.sleep(for: idleTimeout) } catch { return }
            await self.lock()
        }
    }

    /// Locks now: decrypted data leaves the view models, the store closes, Unlock shows.
    public func lock() async {
        idleTask?.cancel()
        list = nil
        add = nil
        detail = nil
        appState.notice = nil
        await factory.accountStoreLock.lock()
        showUnlock()
    }

    public func showList() {
        add = nil
        detail = nil
        if list == nil {
            list = factory.makeAccountListViewModel(
                actions: .init(
                    showAdd: { [weak self] in self?.showAdd() },
                    showDetail: { [weak self] id in self?.showDetail(id) }))
        }
        appState.route = .list
    }

    public func showAdd() {
        add = factory.makeAddAccountViewModel(
            actions: .init(
                saved: { [weak self] account in
                    self?.appState.notice = "Added \(account.displayName)"
                    self?.showList()
                    Task { await self?.list?.load() }
                },
                cancel: { [weak self] in self?.showList() }))
        appState.route = .add
    }

    public func showDetail(_ id: UUID) {
        let detail = factory.makeAccountDetailViewModel(
            id: id,
            actions: .init(
                saved: { [weak self] account in
                    self?.appState.notice = "Saved \(account.displayName)"
                    self?.showList()
                    Task { await self?.list?.load() }
                },
                close: { [weak self] in self?.showList() }))
        self.detail = detail
        appState.route = .detail(id)
    }

    private func showUnlock() {
        unlock = factory.makeUnlockViewModel(
            actions: .init(unlocked: { [weak self] in
                guard let self else { return }
                self.unlock = nil
                self.appState.isLocked = false
                self.showList()
                self.userActivity()
            }))
        appState.isLocked = true
        appState.route = .unlock
    }

    /// Whether there is anything to lock: a vault that asks a passphrase (DEV's demo accounts
    /// have none).
    public var canLock: Bool { factory.accountStoreLock.requiresUnlock }

    /// Shows a notice on the status line.
    public func notify(_ text: String?) {
        appState.notice = text
    }
}
