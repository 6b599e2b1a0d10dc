import Foundation
import IntegrationTestSupport

/// A `tokens-server` on a database of its own, with the clients of a load: `connections` for
/// wrk (devices `wrk-N`) and as many for pgbench (`pgbench-N`), each on an account of its own.
public final class SyncLoad: @unchecked Sendable {
    public static let workloads = ["push", "pull", "head"]

    public let server: ServerProcess
    public let database: String
    public let connections: Int
    private let wrk: Wrk
    private let pgbench: Pgbench
    private var clients: [LoadClient]
    private let clientsFile: URL

    /// Starts the server (REAL, as a user runs it) on `url`, the database `database` of the
    /// cluster in the environment, and makes the clients, `entries` in each account.
    public convenience init(
        database: String, url: String, connections: Int, entries: Int = LoadFixture.entriesPerAccount,
        repository root: URL = RepositoryRoot.url
    ) async throws {
        try await self.init(
            server: try ServerProcess(
                ["--phase", "real"],
                environment: ["TOKENS_SERVER_DATABASE_URL": url, "TOKENS_LOG_LEVEL": "info"].merging(Self.oneMachine) { $1 }),
            database: database, connections: connections, entries: entries, repository: root)
        _ = try await LoadFixture.clients(connections, named: "pgbench", entries: entries, on: server)
    }

    /// A `tokens-server` in the DEV phase (everything in memory) with wrk's clients only: what a
    /// request costs the server itself, without a database, for reference (no pgbench).
    public convenience init(
        inMemoryWith connections: Int, entries: Int = LoadFixture.entriesPerAccount, repository root: URL = RepositoryRoot.url
    ) async throws {
        try await self.init(
            server: try ServerProcess(["--phase", "dev"], environment: ["TOKENS_LOG_LEVEL": "info"].merging(Self.oneMachine) { $1 }),
            database: "",
            connections: connections, entries: entries, repository: root)
    }

    /// Every client of the load opens its account from this machine: more than a user's address
    /// may open in an hour.
    static let oneMachine = ["TOKENS_SERVER_ACCOUNTS_PER_ADDRESS": "100000"]

    private init(server: ServerProcess, database: String, connections: Int, entries: Int, repository root: URL) async throws {
        self.server = server
        self.database = database
        self.connections = connections
        wrk = Wrk(repository: root)
        pgbench = Pgbench(script: try PgbenchScript(repository: root))
        clients = try await LoadFixture.clients(connections, named: "wrk", entries: entries, on: server)
        clientsFile = FileManager.default.temporaryDirectory.appendingPathComponent("load-clients-\(UUID())")
    }

    deinit {
        try? FileManager.default.removeItem(at: clientsFile)
    }

    /// The wrk clients' entries and heads as the database has them now.
    public var heads: [Int64] {
        get async throws { try await LoadFixture.refreshed(clients, on: server).map(\.head) }
    }

    /// wrk against the server, `workload` for `seconds`, after the clients' sequences are read
    /// again (a push is based on its entry's current sequence; a head check asks after the head).
    public func server(_ workload: String, seconds: Int, delayMilliseconds: Int = 0) async throws -> LoadFigures {
        clients = try await LoadFixture.refreshed(clients, on: server)
        try LoadFixture.write(clients, to: clientsFile)
        let (before, machine) = (serverCPUSeconds, MachineCPU.busySeconds)
        var figures = try wrk.run(
            workload, url: server.baseURL, clientsFile: clientsFile, connections: connections, seconds: seconds,
            delayMilliseconds: delayMilliseconds)
        figures.serverCPUMilliseconds = LoadFigures.milliseconds(from: before, to: serverCPUSeconds, per: figures.completed)
        figures.machineCPUMilliseconds = LoadFigures.milliseconds(from: machine, to: MachineCPU.busySeconds, per: figures.completed)
        return figures
    }

    /// The server's processor time so far (user and system), in seconds (Linux's /proc).
    public var serverCPUSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(server.child.pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's name: state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// pgbench running the server's SQL for `workload` for `seconds`, as many clients as wrk's;
    /// `minimal`: the smallest SQL that does the request instead (its "-minimal" section).
    public func postgres(_ workload: String, seconds: Int, minimal: Bool = false) throws -> LoadFigures {
        let machine = MachineCPU.busySeconds
        var figures = try pgbench.run(
            minimal ? workload + "-minimal" : workload, database: database, clients: connections, seconds: seconds)
        figures.machineCPUMilliseconds = LoadFigures.milliseconds(from: machine, to: MachineCPU.busySeconds, per: figures.completed)
        return figures
    }

    /// The server's resident memory now, in bytes (Linux's /proc).
    public var serverResidentBytes: Int? {
        let status = (try? String(contentsOfFile: "/proc/\(server.child.pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    /// Near `fraction` of `peak` requests per second: each connection pauses before a request, the
    /// pause found from a short calibrating run (wrk's pauses are whole milliseconds). The
    /// measured run's figures, at the rate it reached.
    public func server(_ workload: String, seconds: Int, atRate target: Double, calibrationSeconds: Int = 3) async throws -> LoadFigures {
        let interval = Double(connections) * 1000 / target
        let trial = try await server(workload, seconds: calibrationSeconds, delayMilliseconds: Int(interval.rounded()))
        let overhead = max(0, Double(connections) * 1000 / max(trial.perSecond, 1) - interval.rounded())
        return try await server(workload, seconds: seconds, delayMilliseconds: max(0, Int((interval - overhead).rounded())))
    }

    /// `workloads` in turn, 10 s each, at full speed, for `seconds`; the server's resident
    /// memory after each run.
    public func soak(_ workloads: [String], seconds: Int) async throws -> LoadReport.Soak {
        let start = ContinuousClock.now
        var samples: [LoadReport.Soak.Sample] = []
        var failures = 0
        while ContinuousClock.now - start < .seconds(seconds) {
            failures += try await server(workloads[samples.count % workloads.count], seconds: 10).failures
            let elapsed = Int((ContinuousClock.now - start).components.seconds)
            samples.append(LoadReport.Soak.Sample(seconds: elapsed, residentMegabytes: Double(serverResidentBytes ?? 0) / 1_048_576))
        }
        return LoadReport.Soak(samples: samples, failures: failures)
    }
}
