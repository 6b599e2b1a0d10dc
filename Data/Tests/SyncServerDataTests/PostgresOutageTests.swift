import Foundation
import Logging
import PostgresNIO
import SyncServer
import SyncServerTestSupport
import Testing
import _ConnectionPoolModule

@testable import SyncServerData

/// A database that cannot serve: an unreachable one answers `unavailable` within the store's
/// deadline, a read-only one refuses a push without storing any of it.
@Suite("The PostgreSQL store when the database cannot serve")
struct PostgresOutageTests {
    @Test(
        "SQLSTATEs: connection exceptions, shutdown and start-up, too many connections are unreachable; disk full; read-only; others are no outage"
    )
    func sqlStates() {
        for state in ["08000", "08006", "08001", "57P01", "57P02", "57P03", "53300"] {
            #expect(PostgresOutage.of(sqlState: state) == .unreachable, "\(state)")
        }
        #expect(PostgresOutage.of(sqlState: "53100") == .full)
        #expect(PostgresOutage.of(sqlState: "25006") == .readOnly)
        for state in ["23505", "40001", "42P01", "22001"] { #expect(PostgresOutage.of(sqlState: state) == nil, "\(state)") }
    }

    @Test(
        "the pool's own errors (its circuit breaker after a minute of failed connections, a pool shut down as the primary moves) are an outage, a 503, never a 500"
    )
    func poolErrors() {
        let errors: [any Error] = [
            ConnectionPoolError.connectionCreationCircuitBreakerTripped, ConnectionPoolError.poolShutdown,
            ConnectionPoolError.requestCancelled,
        ]
        for error in errors { #expect(PostgresOutage.of(any: error) == .unreachable, "\(error)") }
        #expect(PostgresOutage.of(any: CancellationError()) == nil)
    }

    @Test(
        "nothing listens where the database should be: every call is unavailable within the deadline, not after the pool gives up",
        .timeLimit(.minutes(10)))
    func unreachable() async throws {
        // Port 1 (tcpmux): nothing listens there on a machine that runs these tests.
        var configuration = PostgresClient.Configuration(
            host: "127.0.0.1", port: 1, username: "tokens", password: nil, database: "tokens", tls: .disable)
        configuration.options.connectTimeout = .seconds(1)
        var logger = Logger(label: "tokens.test.outage")
        logger.logLevel = .critical
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let store = PostgresSyncServerStore(client: client, logger: logger, deadline: .seconds(1))
            let account = SyncAccountID(UUID())
            await #expect(throws: SyncServerError.unavailable(.unreachable)) { try await store.head(of: account) }
            await #expect(throws: SyncServerError.unavailable(.unreachable)) {
                try await store.push([ServerSamples.change(1, "x")], to: account, at: Date())
            }
        }
    }

    @Test(
        "a read-only database: a push is refused as unavailable (read-only) and stores nothing",
        .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason))
    func readOnly() async throws {
        try await TestPostgres.withSchema { schema in
            try await TestPostgres.withClient(searchPath: schema) { client in
                let store = PostgresSyncServerStore(client: client, logger: TestPostgres.logger)
                try await store.migrate()
                let account = SyncAccountID(UUID())
                try await store.createAccount(SyncAccountRecord(id: account, authKeyDigest: SecretDigest(bytes: [1]), createdAt: Date()))
                _ = try await store.push([ServerSamples.change(1, "before")], to: account, at: Date())
                var configuration = TestPostgres.configuration(searchPath: schema)
                configuration.options.additionalStartupParameters.append(("default_transaction_read_only", "on"))
                let readOnlyClient = PostgresClient(configuration: configuration, backgroundLogger: TestPostgres.logger)
                try await withThrowingTaskGroup(of: Void.self) { group async throws in
                    group.addTask { await readOnlyClient.run() }
                    defer { group.cancelAll() }
                    let readOnly = PostgresSyncServerStore(client: readOnlyClient, logger: TestPostgres.logger)
                    await #expect(throws: SyncServerError.unavailable(.readOnly)) {
                        try await readOnly.push(
                            [ServerSamples.change(2, "refused"), ServerSamples.change(3, "refused")], to: account, at: Date())
                    }
                    let head = try await readOnly.head(of: account)
                    #expect(head == 1, "reads still work")
                }
                #expect(try await store.head(of: account) == 1)
                #expect(try await store.changes(of: account, after: 0, limit: 10).count == 1, "nothing of the refused push was stored")
            }
        }
    }
}
