import Foundation
import SyncServer
import SyncServerTestSupport
import Testing

extension SyncServerStoreContract {
    /// History: each live version a push replaces is kept (a tombstone never), read in sequence
    /// order; a purge forgets what `HistoryRetention.kept` does not keep.
    static func history(_ store: any SyncServerStore) async throws {
        try await seeded(store)
        func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }
        func push(_ change: EntryChange, _ seconds: TimeInterval) async throws -> [PushResult] {
            try await store.push([change], to: account, at: at(seconds))
        }
        _ = try await store.push([ServerSamples.change(1, "a1"), ServerSamples.change(2, "b1")], to: account, at: start)
        _ = try await push(ServerSamples.change(1, basedOn: 1, "a2"), 10)
        _ = try await push(ServerSamples.change(2, basedOn: 2, "", deleted: true), 20)
        _ = try await push(ServerSamples.change(2, basedOn: 4, "b3"), 30)
        _ = try await push(ServerSamples.change(1, basedOn: 3, "a3"), 40)
        // A change that conflicts keeps nothing.
        #expect(try await push(ServerSamples.change(1, basedOn: 3, "stale"), 50).count == 1)
        let earlier = try await store.earlierEntries(of: account, after: 0, limit: 10)
        #expect(earlier.map(\.entry.sequence) == [1, 2, 3])
        #expect(earlier.map(\.replacedAt) == [at(10), at(20), at(40)])
        #expect(earlier.map(\.entry.payload) == ["a1", "b1", "a2"].map { ServerSamples.payload($0) })
        #expect(earlier.map(\.entry.changedAt) == [start, start, at(10)])
        #expect(try await store.earlierEntries(of: account, after: 1, limit: 1).map(\.entry.sequence) == [2])
        #expect(try await store.earlierEntries(of: other, after: 0, limit: 10).isEmpty)

        let unbounded = HistoryRetention(days: 90, versionsPerEntry: 20, bytes: .max)
        #expect(try await store.purgeHistory(unbounded, cutoff: start) == 0)
        // Entry 1 keeps its newest earlier version only.
        #expect(try await store.purgeHistory(HistoryRetention(days: 90, versionsPerEntry: 1, bytes: .max), cutoff: start) == 1)
        #expect(try await store.earlierEntries(of: account, after: 0, limit: 10).map(\.entry.sequence) == [2, 3])
        // Replaced before the cutoff.
        #expect(try await store.purgeHistory(unbounded, cutoff: at(30)) == 1)
        #expect(try await store.earlierEntries(of: account, after: 0, limit: 10).map(\.entry.sequence) == [3])
        // Past the account's bytes: the newest "a2" alone is 2 bytes.
        #expect(try await store.purgeHistory(HistoryRetention(days: 90, versionsPerEntry: 20, bytes: 1), cutoff: start) == 1)
        #expect(try await store.earlierEntries(of: account, after: 0, limit: 10).isEmpty)
    }
}
