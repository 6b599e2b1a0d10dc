import Logging
import SyncServer
import SyncServerData

/// `tokens-server admin`'s graph: the administration use case on the phase's database, the
/// same store a server serves from, without a server (it works with every instance stopped).
package enum AdminComposer {
    /// Runs `body` with the use case on the database of `url` (checked and migrated first, as a
    /// starting server does); its connections live as long as `body` runs.
    package static func withAdministration<T: Sendable>(
        url: String, logger: Logger, _ body: (any AdministerServerUseCase) async throws -> T
    ) async throws -> T {
        try await PostgresStartupCheck.check(url: url)
        // The pool's own chatter is noise in a command whose answer is its output (postgres-nio
        // warns of a lease queued a moment before its run loop starts); failures are thrown.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .error)
        let postgres = try PostgresSyncServerStore.make(url: url, logger: poolLogger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await postgres.primary.run() }
            defer { group.cancelAll() }
            try await postgres.store.migrate()
            return try await body(
                DefaultAdministerServerUseCase(
                    store: postgres.store, administration: postgres.store, clock: SystemServerClock(), random: SystemServerRandom(),
                    digester: SHA256SecretDigester()))
        }
    }
}
