import Foundation

/// Port: whether the store can serve requests now (every `SyncServerStore` answers it).
public protocol StoreReadiness: Sendable {
    /// Returns once the store can serve; throws `SyncServerError.unavailable` with why not
    /// (unreachable, full, or taking no writes). Asks the database, within its deadline.
    func checkReady() async throws
}
