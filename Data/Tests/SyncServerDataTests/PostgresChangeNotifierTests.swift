import Foundation
import PostgresNIO
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

/// Instances that share one PostgreSQL wake each other's long-polls through LISTEN/NOTIFY.
@Suite("Change notifications across instances", .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason))
struct PostgresChangeNotifierTests {
    let account = SyncAccountID(UUID())
    let other = SyncAccountID(UUID())

    /// Runs `body` with a notifier on a client of its own (one instance) whose listening is in
    /// place, and a store on that client in `schema`.
    private func withInstance(
        in schema: String? = nil, _ body: (PostgresChangeNotifier, PostgresSyncServerStore) async throws -> Void
    ) async throws {
        try await TestPostgres.withClient(searchPath: schema) { client in
            let notifier = PostgresChangeNotifier(client: client, logger: TestPostgres.logger)
            let store = PostgresSyncServerStore(client: client, logger: TestPostgres.logger)
            let (listening, ready) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await notifier.listen(listening: { ready.yield() }) }
                defer { group.cancelAll() }
                for await _ in listening { break }
                try await body(notifier, store)
            }
        }
    }

    /// Waits (for as long as an hour) in a task of its own, and returns once the notifier holds the wait.
    private func waiter(on notifier: PostgresChangeNotifier, for account: SyncAccountID, count: Int) async -> Task<Void, Never> {
        let task = Task { await notifier.wait(for: account, atMost: 3600) }
        while await notifier.waiting < count { await Task.yield() }
        return task
    }

    @Test("a push through one instance wakes the other's waiter of that account, and only that one", .timeLimit(.minutes(10)))
    func wakesAcrossInstances() async throws {
        try await TestPostgres.withSchema { schema in
            try await withInstance(in: schema) { _, store in
                try await store.migrate()
                try await store.createAccount(SyncAccountRecord(id: account, authKeyDigest: SecretDigest(bytes: [1]), createdAt: Date()))
                try await withInstance(in: schema) { second, _ in
                    try await wakesOther(second, pushingTo: store)
                }
            }
        }
    }

    /// A push through `store` (the first instance's), and `second`'s waiters.
    private func wakesOther(_ second: PostgresChangeNotifier, pushingTo store: PostgresSyncServerStore) async throws {
        let woken = await waiter(on: second, for: account, count: 1)
        let untouched = await waiter(on: second, for: other, count: 2)
        let change = EntryChange(id: EntryID(UUID()), basedOn: 0, payload: ServerSamples.payload("woken"))
        #expect(try await store.push([change], to: account, at: Date()) == [.applied(sequence: 1)])
        // Returns only if woken: its own deadline is an hour away.
        await woken.value
        #expect(await second.waiting == 1)
        untouched.cancel()
        await untouched.value
    }

    @Test("the instance that stored the change wakes its own waiters at once", .timeLimit(.minutes(10)))
    func wakesOwnWaiters() async throws {
        try await withInstance { notifier, _ in
            let woken = await waiter(on: notifier, for: account, count: 1)
            await notifier.changed(account)
            await woken.value
            #expect(await notifier.waiting == 0)
        }
    }
}
