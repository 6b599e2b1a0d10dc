import Logging
import PostgresNIO
import Synchronization

/// The pooled client of the database host that takes writes. postgres-nio's client has one
/// host; a URL that names several (a primary and its standbys on PostgreSQL's streaming
/// replication) gets one client at a time, as libpq's `target_session_attrs=read-write` does:
/// when the store meets an unreachable or read-only database it calls `suspect()`, and `run()`
/// asks each host in turn whether it is in recovery; the first that is not becomes the client,
/// and the old client's pool is shut down (its calls fail, as 503s, and are retried by clients).
/// With one host nothing is probed: the pool reconnects to it on its own.
public final class PostgresPrimary: Sendable {
    private struct State {
        var client: PostgresClient
        var index: Int
        var runners: [Task<Void, Never>] = []
        var running = false
        /// `run()` has ended: no client is started or moved to any more (none would be shut down).
        var stopped = false
    }

    private let parts: PostgresDatabaseURL.Parts?
    private let logger: Logger
    private let state: Mutex<State>
    private let suspicions: AsyncStream<Void>
    private let suspicion: AsyncStream<Void>.Continuation

    /// The hosts of `url`, the first one's client first.
    public convenience init(url: String, logger: Logger) throws {
        let parts = try PostgresDatabaseURL.parts(from: url)
        self.init(parts: parts, logger: logger)
    }

    /// One client that the caller runs (tests): nothing is probed, nothing run here.
    public convenience init(fixed client: PostgresClient, logger: Logger) {
        self.init(client: client, logger: logger)
    }

    private init(parts: PostgresDatabaseURL.Parts, logger: Logger) {
        self.parts = parts
        self.logger = logger
        let first = PostgresDatabaseURL.configuration(parts, parts.endpoints[0])
        state = Mutex(State(client: PostgresClient(configuration: first, backgroundLogger: logger), index: 0))
        (suspicions, suspicion) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    private init(client: PostgresClient, logger: Logger) {
        parts = nil
        self.logger = logger
        state = Mutex(State(client: client, index: 0, running: true))
        (suspicions, suspicion) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Whether the URL names more than one host (else nothing is probed).
    private var hasStandbys: Bool { (parts?.endpoints.count ?? 1) > 1 }

    /// The client of the host taken for the primary now.
    public var client: PostgresClient { state.withLock { $0.client } }

    /// Says the current host failed to serve: `run()` looks for the primary again.
    public func suspect() {
        guard hasStandbys else { return }
        suspicion.yield()
    }

    /// Looks for the host that takes writes now, and moves to it if it is another host;
    /// whether one was found. Returns at once with one host; with several, after one round of
    /// asking them.
    @discardableResult
    public func locate() async -> Bool {
        guard let parts, hasStandbys else { return true }
        startRunning()
        for (index, endpoint) in parts.endpoints.enumerated() {
            guard await takesWrites(parts, endpoint) else { continue }
            move(to: index, of: parts)
            return true
        }
        return false
    }

    /// Runs the clients until cancelled (then shuts their pools down): the current one's pool,
    /// and, whenever the store suspects the current host, the search for the one that takes
    /// writes, every half second until one does (a standby being promoted).
    public func run() async {
        guard parts != nil else { return }
        startRunning()
        for await _ in suspicions {
            while !Task.isCancelled, await !locate() { try? await Task.sleep(for: .milliseconds(500)) }
            try? await Task.sleep(for: .milliseconds(500))
        }
        let runners = state.withLock { state in
            defer { state.runners = [] }
            state.stopped = true
            return state.runners
        }
        for runner in runners {
            runner.cancel()
            await runner.value
        }
    }

    private func startRunning() {
        state.withLock { state in
            guard !state.running, !state.stopped else { return }
            state.running = true
            let client = state.client
            state.runners.append(Task.detached { await client.run() })
        }
    }

    private func move(to index: Int, of parts: PostgresDatabaseURL.Parts) {
        let old: Task<Void, Never>? = state.withLock { state in
            guard state.index != index, !state.stopped else { return nil }
            let client = PostgresClient(
                configuration: PostgresDatabaseURL.configuration(parts, parts.endpoints[index]), backgroundLogger: logger)
            state.client = client
            state.index = index
            state.runners.append(Task.detached { await client.run() })
            return state.runners.removeFirst()
        }
        guard let old else { return }
        logger.notice("database primary moved", metadata: ["host": "\(parts.endpoints[index])"])
        old.cancel()
    }

    /// Whether `endpoint` answers within two seconds and is not in recovery.
    private func takesWrites(_ parts: PostgresDatabaseURL.Parts, _ endpoint: PostgresDatabaseURL.Endpoint) async -> Bool {
        guard let connection = try? await PostgresStartupCheck.connect(parts, endpoint, timeout: .seconds(2)) else { return false }
        let quiet = Logger(label: "tokens.server.primary") { _ in SwiftLogNoOpLogHandler() }
        let inRecovery = try? await connection.query("SELECT pg_is_in_recovery()", logger: quiet).decode(Bool.self).collected().first
        try? await connection.close()
        return inRecovery == false
    }
}
