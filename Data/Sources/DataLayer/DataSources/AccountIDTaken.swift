import Foundation

/// A data source's answer to an insert whose id is already stored (or repeated in the batch):
/// nothing was written. `DefaultAccountRepository` reports it as Domain's `RepositoryError`.
public struct AccountIDTaken: Error, Hashable, Sendable {
    public let id: UUID

    public init(_ id: UUID) {
        self.id = id
    }
}
