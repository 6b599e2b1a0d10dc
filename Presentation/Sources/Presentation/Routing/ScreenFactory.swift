import Domain
import Foundation

/// Makes each screen's view model with its dependencies: App's per-scene DI container
/// implements it, so the router never knows a concrete use case.
@MainActor
public protocol ScreenFactory {
    var accountStoreLock: any AccountStoreLock { get }
    func makeUnlockViewModel(actions: UnlockViewModel.Actions) -> UnlockViewModel
    func makeAccountListViewModel(actions: AccountListViewModel.Actions) -> AccountListViewModel
    func makeAddAccountViewModel(actions: AddAccountViewModel.Actions) -> AddAccountViewModel
    func makeAccountDetailViewModel(id: UUID, actions: AccountDetailViewModel.Actions) -> AccountDetailViewModel
}
