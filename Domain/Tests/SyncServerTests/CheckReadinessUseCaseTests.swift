import Foundation
import SyncServer
import SyncServerTestSupport
import Testing

/// Readiness: whatever the store's check throws means "not ready" (503), never a server error.
@Suite("Readiness")
struct CheckReadinessUseCaseTests {
    /// A store whose readiness check throws `failure` (nil: ready); nothing else is asked of it.
    struct Store: StoreReadiness {
        let failure: (any Error)?
        func checkReady() async throws { if let failure { throw failure } }
    }

    struct Unexpected: Error {}

    @Test("ready passes; an outage keeps its kind; any other failure is the database unreachable")
    func outcomes() async throws {
        try await DefaultCheckReadinessUseCase(store: Store(failure: nil)).execute()
        let cases: [(any Error, SyncServerError)] = [
            (SyncServerError.unavailable(.readOnly), .unavailable(.readOnly)),
            (SyncServerError.unavailable(.full), .unavailable(.full)),
            (SyncServerError.invalid("x"), .unavailable(.unreachable)),
            (Unexpected(), .unavailable(.unreachable)),
        ]
        for (thrown, expected) in cases {
            await #expect(throws: expected) { try await DefaultCheckReadinessUseCase(store: Store(failure: thrown)).execute() }
        }
    }
}
