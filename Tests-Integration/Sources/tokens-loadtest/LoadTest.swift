import Foundation
import IntegrationTestSupport
import LoadKit
import ProcessKit

/// `make loadtest`: the sync server under wrk against pgbench on the same PostgreSQL running the
/// smallest SQL that does each request, and running the server's own SQL, in alternating rounds
/// so the ratios hold on a noisy machine; then each
/// workload at half of its peak for latency, and against the server in memory (DEV: its own
/// cost of a request, without a database), and a soak for the server's memory. Prints a table
/// and writes bench/sync-results.json. Fails (status 1) on any answer other than 2xx.
@main
enum LoadTest {
    static func main() async {
        let parsed: LoadTestOptions?
        do {
            parsed = try LoadTestOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail("\(error.message) (tokens-loadtest --help: the options)", status: 2)
        }
        guard let options = parsed else {
            print(LoadTestOptions.usage)
            return
        }
        setenv("TOKENS_SERVER_BIN", options.server, 1)
        for tool in ["wrk", "pgbench"] where ProcessRunner.which(tool) == nil {
            fail("\(tool) is not installed (make loadtest installs it)", status: 1)
        }
        do {
            let report = try await measure(options)
            report.printTable()
            try report.write(to: options.output)
            print("wrote \(options.output)")
            if report.failures > 0 { exit(1) }
        } catch {
            fail("\(error)", status: 1)
        }
    }

    /// One line on standard error, then the exit status (no trap, no backtrace).
    static func fail(_ message: String, status: Int32) -> Never {
        let line = message.split(separator: "\n").joined(separator: " ")
        FileHandle.standardError.write(Data("tokens-loadtest: \(line)\n".utf8))
        exit(status)
    }

    /// On a database of its own, dropped afterwards.
    nonisolated static func measure(_ options: LoadTestOptions) async throws -> LoadReport {
        try await TestDatabase.with(prefix: "loadtest") { name, url in
            try await run(options, database: name, url: url)
        }
    }

    nonisolated static func run(_ options: LoadTestOptions, database: String, url: String) async throws -> LoadReport {
        let load = try await SyncLoad(database: database, url: url, connections: options.connections, entries: options.entries)
        let inMemory = try await SyncLoad(inMemoryWith: options.connections, entries: options.entries)
        var report = LoadReport(
            machine: Machine.description, connections: options.connections, seconds: options.seconds, rounds: options.rounds)
        report.entriesPerAccount = options.entries
        for workload in options.workloads {
            progress(
                "== \(workload): \(options.rounds) rounds of \(options.seconds) s, server, pgbench minimal and pgbench server SQL in turn")
            _ = try await load.server(workload, seconds: 2)  // warm-up
            var servers: [LoadFigures] = []
            var postgres: [LoadFigures] = []
            var minimal: [LoadFigures] = []
            for _ in 0..<options.rounds {
                servers.append(try await load.server(workload, seconds: options.seconds))
                minimal.append(try load.postgres(workload, seconds: options.seconds, minimal: true))
                postgres.append(try load.postgres(workload, seconds: options.seconds))
            }
            let peak = LoadFigures.median(servers).perSecond
            progress("== \(workload): half of peak (\(Int(peak / 2)) a second)")
            let half = try await load.server(workload, seconds: options.seconds, atRate: peak / 2)
            progress("== \(workload): the server in memory (DEV), without a database")
            _ = try await inMemory.server(workload, seconds: 2)  // warm-up
            let memory = try await inMemory.server(workload, seconds: options.seconds)
            report.add(workload: workload, server: servers, minimal: minimal, postgres: postgres, half: half, inMemory: memory)
        }
        if options.soakSeconds > 0 {
            progress(
                "== soak: \(options.soakSeconds) s of \(options.workloads.joined(separator: ", ")) in turn, the server's memory after each")
            report.soak = try await load.soak(options.workloads, seconds: options.soakSeconds)
            report.failures += report.soak?.failures ?? 0
        }
        inMemory.server.stop()
        load.server.stop()
        return report
    }
}

/// A line of progress, written at once (print's output waits in a buffer when it is not a terminal).
func progress(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
