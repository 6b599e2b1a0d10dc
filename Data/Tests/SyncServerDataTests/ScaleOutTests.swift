import Foundation
import PostgresNIO
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Synchronization
import Testing

/// Server instances that share nothing but PostgreSQL: each its own client, store and notifier
/// (as `tokens-server` processes have), the rules' use cases over them.
@Suite("Two instances on one database", .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason))
struct ScaleOutTests {
    /// One instance: its use cases, over a store and notifier of its own, listening.
    struct Instance {
        let push: DefaultPushChangesUseCase
        let pull: DefaultPullChangesUseCase
        let store: PostgresSyncServerStore
    }

    /// Runs `body` with two instances on a new schema.
    private func withInstances(_ body: ([Instance]) async throws -> Void) async throws {
        try await TestPostgres.withSchema { schema in
            try await TestPostgres.withClient(searchPath: schema) { first in
                try await TestPostgres.withClient(searchPath: schema) { second in
                    let clients = [first, second]
                    let stores = clients.map { PostgresSyncServerStore(client: $0, logger: TestPostgres.logger) }
                    try await stores[0].migrate()
                    let notifiers = clients.map { PostgresChangeNotifier(client: $0, logger: TestPostgres.logger) }
                    let (listening, ready) = AsyncStream.makeStream(of: Void.self)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for notifier in notifiers { group.addTask { await notifier.listen(listening: { ready.yield() }) } }
                        defer { group.cancelAll() }
                        var count = 0
                        for await _ in listening {
                            count += 1
                            if count == notifiers.count { break }
                        }
                        let clock = SystemServerClock()
                        let instances = zip(stores, notifiers).map { store, notifier in
                            Instance(
                                push: DefaultPushChangesUseCase(
                                    store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: SyncLimits()),
                                pull: DefaultPullChangesUseCase(
                                    store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: SyncLimits()),
                                store: store)
                        }
                        try await body(instances)
                    }
                }
            }
        }
    }

    @Test(
        "8 pushers spread over two instances and a long-polling puller on one: the puller ends equal to the database, no sequence used twice",
        .timeLimit(.minutes(10)))
    func pushersAndPuller() async throws {
        try await withInstances { instances in
            let account = SyncAccountID(UUID())
            try await instances[0].store.createAccount(
                SyncAccountRecord(id: account, authKeyDigest: SecretDigest(bytes: [1]), createdAt: Date()))
            let caller = AuthenticatedDevice(account: account, device: DeviceID(UUID()))
            let pushersDone = Mutex(false)
            let puller = Task {
                var pulled: [EntryID: Int64] = [:]
                var sequences: [Int64] = []
                var cursor: Int64 = 0
                while true {
                    let done = pushersDone.withLock { $0 }
                    let page = try await instances[1].pull.execute(after: cursor, limit: nil, waiting: 1, for: caller)
                    for entry in page.entries {
                        pulled[entry.id] = entry.sequence
                        sequences.append(entry.sequence)
                    }
                    cursor = page.entries.last?.sequence ?? cursor
                    if done, page.entries.isEmpty, cursor == page.head { return (pulled, sequences, cursor) }
                }
            }
            // 8 pushers, 25 pushes of a new entry each, through the two instances in turn.
            let pushed = try await withThrowingTaskGroup(of: [EntryID: Int64].self) { group in
                for pusher in 0..<8 {
                    group.addTask {
                        var mine: [EntryID: Int64] = [:]
                        for round in 0..<25 {
                            let change = EntryChange(
                                id: EntryID(UUID()), basedOn: 0, payload: ServerSamples.payload("p\(pusher)-r\(round)"))
                            let results = try await instances[pusher % 2].push.execute([change], for: caller)
                            guard case .applied(let sequence) = results.first else {
                                Issue.record("a new entry was not applied: \(results)")
                                continue
                            }
                            mine[change.id] = sequence
                        }
                        return mine
                    }
                }
                return try await group.reduce(into: [:]) { $0.merge($1) { first, _ in first } }
            }
            pushersDone.withLock { $0 = true }
            let (pulled, sequences, cursor) = try await puller.value
            #expect(pushed.count == 200)
            #expect(Set(pushed.values).count == 200, "no sequence acknowledged twice")
            #expect(pulled == pushed, "the puller has every acknowledged change, at its sequence")
            #expect(Set(sequences).count == sequences.count, "no sequence pulled twice")
            #expect(cursor == 200 && Set(sequences) == Set(1...200))
            #expect(try await instances[0].store.head(of: account) == 200)
        }
    }
}
