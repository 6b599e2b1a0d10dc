import Domain
import Foundation
import Observation

/// The Unlock screen: takes a passphrase, says when it is wrong, and refuses input for as long
/// as the use case says the next try must wait, on the injected scheduler.
@MainActor
@Observable
public final class UnlockViewModel {
    /// What the view model may ask the coordinator to do.
    public struct Actions {
        public let unlocked: @MainActor () -> Void
        public init(unlocked: @escaping @MainActor () -> Void) { self.unlocked = unlocked }
    }

    /// Output: the screen's state.
    public enum State: Equatable, Sendable {
        case ready
        case checking
        case failed(String)
        /// Wrong again: input is refused until the delay passes.
        case waiting(String, seconds: Int)
    }

    public private(set) var state: State = .ready

    @ObservationIgnored private let unlockUseCase: any UnlockUseCase
    @ObservationIgnored private let scheduler: any Clock<Duration>
    @ObservationIgnored private let actions: Actions

    public init(unlock: any UnlockUseCase, scheduler: any Clock<Duration>, actions: Actions) {
        self.unlockUseCase = unlock
        self.scheduler = scheduler
        self.actions = actions
    }

    /// Input: a passphrase was entered. The caller's buffer is not kept.
    public func submit(_ passphrase: [UInt8]) async {
        if case .waiting = state { return }
        if case .checking = state { return }
        state = .checking
        do {
            try await unlockUseCase.execute(passphrase: passphrase)
            state = .ready
            actions.unlocked()
        } catch {
            let message = "\(error)"
            let delay = (error as? UnlockFailure)?.retryAfter ?? .zero
            guard delay > .zero else {
                state = .failed(message)
                return
            }
            state = .waiting(message, seconds: Int(delay.components.seconds))
            try? await scheduler.sleep(for: delay)
            state = .failed(message)
        }
    }
}
