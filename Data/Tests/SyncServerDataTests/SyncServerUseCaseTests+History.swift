import Foundation
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

extension SyncServerUseCaseTests {
    @Test("history: the caller's account only, pages that say whether more follow, bounds refused; the purge counts from the clock")
    func history() async throws {
        let caller = try await created().enrolled()
        let push = DefaultPushChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits)
        _ = try await push.execute([ServerSamples.change(1, "a1"), ServerSamples.change(2, "b1")], for: caller)
        clock.advance(seconds: 86_400)
        _ = try await push.execute([ServerSamples.change(1, basedOn: 1, "a2"), ServerSamples.change(2, basedOn: 2, "b2")], for: caller)

        let read = DefaultReadHistoryUseCase(store: store, limits: limits)
        let first = try await read.execute(after: 0, limit: 1, for: caller)
        #expect(first.entries.map(\.entry.sequence) == [1] && first.hasMore)
        let rest = try await read.execute(after: 1, limit: nil, for: caller)
        #expect(rest.entries.map(\.entry.sequence) == [2] && !rest.hasMore)
        let stranger = AuthenticatedDevice(account: SyncAccountID(ServerSamples.uuid(9)), device: caller.device)
        #expect(try await read.execute(after: 0, limit: nil, for: stranger).entries.isEmpty)
        for (cursor, limit) in [(Int64(-1), Optional(10)), (0, 0), (0, limits.pageSize + 1)] {
            await #expect(throws: SyncServerError.self) { try await read.execute(after: cursor, limit: limit, for: caller) }
        }

        // Replaced a day ago: kept by a day's retention until the clock passes it.
        let purge = DefaultPurgeHistoryUseCase(
            store: store, clock: clock, retention: HistoryRetention(days: 1, versionsPerEntry: 20, bytes: 1 << 20))
        #expect(try await purge.execute() == 0)
        clock.advance(seconds: 86_401)
        #expect(try await purge.execute() == 2)
        #expect(try await read.execute(after: 0, limit: nil, for: caller).entries.isEmpty)
    }
}
