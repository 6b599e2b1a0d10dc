import Foundation

/// Whether the server can serve requests now: what a load balancer or a service manager asks
/// before sending traffic (`GET /v1/ready`). Liveness (`/v1/health`) asks nothing of the store.
public protocol CheckReadinessUseCase: Sendable {
    /// Returns when ready; throws `SyncServerError.unavailable` with why not.
    func execute() async throws
}

/// CheckReadinessUseCase over the store: any failure of its check, of whatever kind, means not
/// ready (the database unreachable), never a server error.
public struct DefaultCheckReadinessUseCase: CheckReadinessUseCase {
    private let store: any StoreReadiness

    public init(store: any StoreReadiness) {
        self.store = store
    }

    public func execute() async throws {
        do {
            try await store.checkReady()
        } catch let error as SyncServerError {
            guard case .unavailable = error else { throw SyncServerError.unavailable(.unreachable) }
            throw error
        } catch {
            throw SyncServerError.unavailable(.unreachable)
        }
    }
}
