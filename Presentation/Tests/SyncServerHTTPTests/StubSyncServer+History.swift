import Foundation
import SyncServer
import SyncServerTestSupport

extension StubSyncServer {
    /// One earlier version after the cursor, replaced a minute after it was written.
    struct HistoryStub: ReadHistoryUseCase {
        let server: StubSyncServer
        func execute(after cursor: Int64, limit: Int?, for caller: AuthenticatedDevice) async throws -> HistoryPage {
            if let limit, !(1...500).contains(limit) { throw SyncServerError.invalid("a page has 1 to 500 entries") }
            if cursor < 0 { throw SyncServerError.invalid("the cursor must not be negative") }
            server.record("history after \(cursor) limit \(limit.map(String.init) ?? "default")")
            let entry = SyncEntry(
                id: EntryID(ServerSamples.uuid(5)), sequence: cursor + 1, payload: ServerSamples.payload("ct"),
                changedAt: server.clock.now())
            return HistoryPage(entries: [EarlierEntry(entry: entry, replacedAt: server.clock.now().addingTimeInterval(60))], hasMore: true)
        }
    }
}
