import Foundation

extension LoadFigures {
    /// The run with the median rate (its latencies with it).
    public static func median(_ runs: [LoadFigures]) -> LoadFigures {
        runs.sorted { $0.perSecond < $1.perSecond }[runs.count / 2]
    }
}

/// What `make loadtest` measured, with the server's goals; written as bench/sync-results.json.
public struct LoadReport: Codable, Sendable {
    /// One workload: the server's peak against pgbench running the smallest SQL that does the
    /// request and running the server's own SQL, and its latency at half of peak.
    public struct Workload: Codable, Sendable {
        public let name: String
        public let serverRuns: [LoadFigures]
        /// pgbench on the smallest SQL that does the request (sync.pgbench's "-minimal" sections).
        public let minimalRuns: [LoadFigures]
        /// pgbench on the server's own SQL.
        public let pgbenchRuns: [LoadFigures]
        /// Median server requests a second over median pgbench transactions a second on the
        /// minimal SQL: the goal's ratio.
        public let ratio: Double
        public let ratioGoal: Double
        /// The same over pgbench on the server's own SQL: what the server adds to its queries.
        public let serverSQLRatio: Double
        public let halfPeak: LoadFigures
        /// The rate the half-peak run reached, as a fraction of the peak.
        public let halfPeakFraction: Double
        public let p99GoalMilliseconds: Double
        /// The same workload against the server in the DEV phase (in memory, no database): the
        /// server's own share of a request's cost.
        public let inMemory: LoadFigures?
        public var ratioMet: Bool { ratio >= ratioGoal }

        /// The whole machine's busy time a request (`MachineCPU`), the median of each side's
        /// runs: the server's (wrk, the server and PostgreSQL), pgbench's on the minimal SQL and on
        /// the server's SQL. When all of them share saturated cores a rate is the cores over this,
        /// so the goal's ratio needs the server's at most the minimal SQL's over the goal.
        public var machineCPU: (server: Double, minimal: Double, serverSQL: Double)? {
            guard let server = Self.median(serverRuns.compactMap(\.machineCPUMilliseconds)),
                let minimal = Self.median(minimalRuns.compactMap(\.machineCPUMilliseconds)),
                let serverSQL = Self.median(pgbenchRuns.compactMap(\.machineCPUMilliseconds))
            else { return nil }
            return (server, minimal, serverSQL)
        }

        static func median(_ values: [Double]) -> Double? {
            values.isEmpty ? nil : values.sorted()[values.count / 2]
        }
        public var latencyMet: Bool { (halfPeak.p99Milliseconds ?? .infinity) <= p99GoalMilliseconds }
    }

    /// The server's resident memory during the soak.
    public struct Soak: Codable, Sendable {
        public struct Sample: Codable, Sendable {
            public let seconds: Int
            public let residentMegabytes: Double
        }
        public let samples: [Sample]
        public let failures: Int

        /// The last sample over the first one taken after a minute (warmed up); nil when too short.
        public var growth: Double? {
            guard let base = samples.first(where: { $0.seconds >= 60 }), let last = samples.last, last.seconds > base.seconds else {
                return nil
            }
            return last.residentMegabytes / base.residentMegabytes
        }
    }

    public let machine: String
    public let connections: Int
    public let seconds: Int
    public let rounds: Int
    /// Entries in each client's account.
    public var entriesPerAccount = LoadFixture.entriesPerAccount
    public var date = ISO8601DateFormatter().string(from: Date())
    public var workloads: [Workload] = []
    public var soak: Soak?
    /// Answers other than 2xx and socket errors (server), failed transactions (pgbench): 0 expected.
    public var failures = 0

    public init(machine: String, connections: Int, seconds: Int, rounds: Int) {
        self.machine = machine
        self.connections = connections
        self.seconds = seconds
        self.rounds = rounds
    }

    /// Goals, against pgbench on the minimal SQL: push at least 0.5 of it, pull and head check
    /// 0.4; p99 at most 25 ms at half of peak.
    public mutating func add(
        workload: String, server: [LoadFigures], minimal: [LoadFigures], postgres: [LoadFigures], half: LoadFigures,
        inMemory: LoadFigures? = nil
    ) {
        let peak = LoadFigures.median(server)
        workloads.append(
            Workload(
                name: workload, serverRuns: server, minimalRuns: minimal, pgbenchRuns: postgres,
                ratio: peak.perSecond / LoadFigures.median(minimal).perSecond, ratioGoal: workload == "push" ? 0.5 : 0.4,
                serverSQLRatio: peak.perSecond / LoadFigures.median(postgres).perSecond, halfPeak: half,
                halfPeakFraction: half.perSecond / peak.perSecond, p99GoalMilliseconds: 25, inMemory: inMemory))
        failures += (server + minimal + postgres + [half] + (inMemory.map { [$0] } ?? [])).map(\.failures).reduce(0, +)
    }

    public func printTable() {
        print("Machine: \(machine); \(connections) connections, \(rounds) rounds of \(seconds) s, \(entriesPerAccount) entries an account")
        for workload in workloads {
            let peak = LoadFigures.median(workload.serverRuns).perSecond
            let minimal = LoadFigures.median(workload.minimalRuns).perSecond
            let pgbench = LoadFigures.median(workload.pgbenchRuns).perSecond
            let verdicts = (workload.ratioMet ? "met" : "MISSED", workload.latencyMet ? "met" : "MISSED")
            print(
                "\(workload.name): server \(Self.f(peak, 0))/s, pgbench on the minimal SQL \(Self.f(minimal, 0))/s:"
                    + " \(Self.f(workload.ratio, 2)) of it (goal \(workload.ratioGoal)) \(verdicts.0);"
                    + " pgbench on the server's SQL \(Self.f(pgbench, 0))/s: \(Self.f(workload.serverSQLRatio, 2)) of it; at \(Self.f(workload.halfPeakFraction, 2)) of peak"
                    + " p50 \(Self.f(workload.halfPeak.p50Milliseconds ?? 0, 1)) ms, p99 \(Self.f(workload.halfPeak.p99Milliseconds ?? 0, 1)) ms"
                    + " (goal 25) \(verdicts.1); server CPU \(Self.f(LoadFigures.median(workload.serverRuns).serverCPUMilliseconds ?? 0, 3)) ms a request"
                    + (workload.inMemory.map {
                        "; in memory (DEV): \(Self.f($0.perSecond, 0))/s, server CPU \(Self.f($0.serverCPUMilliseconds ?? 0, 3)) ms a request"
                    } ?? ""))
            if let cost = workload.machineCPU {
                print(
                    "  \(workload.name), the machine's busy time a request (every program together): server \(Self.f(cost.server, 3)) ms"
                        + (workload.inMemory?.machineCPUMilliseconds.map { " (in memory \(Self.f($0, 3)) ms)" } ?? "")
                        + ", pgbench on the minimal SQL \(Self.f(cost.minimal, 3)) ms, on the server's SQL \(Self.f(cost.serverSQL, 3)) ms;"
                        + " the goal needs the server's at most \(Self.f(cost.minimal / workload.ratioGoal, 3)) ms")
            }
        }
        if let soak {
            let samples = soak.samples.map { String(format: "%.0f", $0.residentMegabytes) }.joined(separator: " ")
            let growth = soak.growth.map { String(format: "%.2f×", $0) } ?? "-"
            print("soak: resident MB after each 10 s run: \(samples); last over the first after a minute: \(growth)")
        }
        print("answers other than 2xx, socket errors, failed pgbench transactions: \(failures)")
    }

    private static func f(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
