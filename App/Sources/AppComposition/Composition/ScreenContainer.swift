import Domain
import Foundation
import Presentation

/// The interactive app's DI container (one per run): makes each screen's view model from the
/// phase's container, for the router. kudoleh's per-scene container, in Swift concurrency.
@MainActor
public final class ScreenContainer: ScreenFactory {
    let container: any AppContainer
    private let scheduler: any Clock<Duration>
    private let clipboard: any Clipboard
    private let options: AccountListViewModel.Options
    /// The clock codes are computed at (`codes.offset`); the phase's clock unless given.
    private let codeClock: any WallClock
    public let accountStoreLock: any AccountStoreLock

    public init(
        container: any AppContainer, lock: any AccountStoreLock, clipboard: any Clipboard,
        scheduler: any Clock<Duration> = ContinuousClock(), options: AccountListViewModel.Options = .init(),
        codeClock: (any WallClock)? = nil
    ) {
        self.codeClock = codeClock ?? container.clock
        self.container = container
        self.accountStoreLock = lock
        self.clipboard = clipboard
        self.scheduler = scheduler
        self.options = options
    }

    public func makeUnlockViewModel(actions: UnlockViewModel.Actions) -> UnlockViewModel {
        UnlockViewModel(unlock: DefaultUnlockUseCase(lock: accountStoreLock), scheduler: scheduler, actions: actions)
    }

    public func makeAccountListViewModel(actions: AccountListViewModel.Actions) -> AccountListViewModel {
        AccountListViewModel(
            reading: .init(
                search: container.makeIndexedSearchAccountsUseCase(), generateCodes: container.makeListCodesUseCase(),
                currentCode: container.makeCurrentCodeUseCase()),
            editing: .init(
                update: container.makeUpdateAccountUseCase(), delete: container.makeDeleteAccountUseCase(),
                add: container.makeAddAccountUseCase(), move: container.makeMoveAccountUseCase()),
            clipboard: clipboard, wallClock: codeClock, scheduler: scheduler, options: options, actions: actions)
    }

    public func makeAddAccountViewModel(actions: AddAccountViewModel.Actions) -> AddAccountViewModel {
        AddAccountViewModel(addAccount: container.makeAddAccountUseCase(), actions: actions)
    }

    /// The coordinator for this run, over a fresh AppState.
    public func makeRouter(idleTimeout: Duration = .seconds(120)) -> AppRouter {
        AppRouter(appState: AppState(), factory: self, scheduler: scheduler, idleTimeout: idleTimeout)
    }
}

extension ScreenContainer {
    public func makeAccountDetailViewModel(id: UUID, actions: AccountDetailViewModel.Actions) -> AccountDetailViewModel {
        AccountDetailViewModel(
            id: id, listAccounts: container.makeListAccountsUseCase(), update: container.makeUpdateAccountUseCase(),
            actions: actions)
    }
}
