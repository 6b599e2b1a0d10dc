import Foundation
import IntegrationTestSupport
import LoadKit
import Testing

/// `make loadtest` in a short form: a few seconds of each workload through wrk against the real
/// server on PostgreSQL, and of pgbench running its SQL and the smallest SQL that does each
/// request. No figure is checked (they depend on the machine): every answer must be 2xx, every
/// pgbench transaction must succeed, every push acknowledged must be in the database once, and
/// each run must have measured the machine's busy time.
@Suite(
    "make loadtest, short",
    .enabled(
        if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
        "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"),
    .enabled(if: ProcessRunner.which("wrk") != nil || RequiredTests.all, "wrk is not installed (make test installs it)"),
    .timeLimit(.minutes(5)))
struct ShortLoadTests {
    @Test("each workload through the server and through pgbench: all 2xx, nothing failed, pushes stored once")
    func shortLoad() async throws {
        #expect(ProcessInfo.processInfo.environment["PGHOST"] != nil, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        #expect(ProcessRunner.which("wrk") != nil, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have wrk")
        try await TestDatabase.with(prefix: "tokens_load") { database, url in
            let load = try await SyncLoad(database: database, url: url, connections: 2)
            for workload in SyncLoad.workloads {
                let before = try await load.heads
                let server = try await load.server(workload, seconds: 2)
                let after = try await load.heads
                #expect(server.completed > 0 && server.failures == 0 && server.conflicts == 0, "\(workload): \(server)")
                // The machine's busy time a request is measured (its size depends on the machine).
                #expect((server.machineCPUMilliseconds ?? 0) > 0, "\(workload): \(server)")
                // Each head moves by the pushes acknowledged, and by at most one more per connection
                // (a push wrk gave up on when its time ended); pulls move nothing.
                let advanced = Int(zip(before, after).map { $1 - $0 }.reduce(0, +))
                if workload == "push" {
                    #expect(advanced >= server.completed && advanced <= server.completed + load.connections, "\(advanced) vs \(server)")
                } else {
                    #expect(advanced == 0)
                }
                for minimal in [false, true] {
                    let postgres = try load.postgres(workload, seconds: 2, minimal: minimal)
                    #expect(postgres.completed > 0 && postgres.failures == 0, "\(workload), minimal \(minimal): \(postgres)")
                    #expect((postgres.machineCPUMilliseconds ?? 0) > 0, "\(workload), minimal \(minimal): \(postgres)")
                }
            }
            #expect(load.server.stop() == .exited(0))
        }
    }
}
