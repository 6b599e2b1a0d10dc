import Domain
import Presentation

/// The screen's background sync: when it runs, and the connection it keeps (closed at the end).
@MainActor
struct BackgroundSync {
    let scheduler: SyncScheduler
    let membership: MembershipSyncUseCase?
}
