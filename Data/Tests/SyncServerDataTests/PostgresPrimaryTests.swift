import Foundation
import PostgresNIO
import Testing

@testable import SyncServerData

/// A URL of several hosts (a primary and its standbys): each is read, and the server uses the
/// one that takes writes, wherever it stands in the list.
@Suite("The primary among a URL's hosts")
struct PostgresPrimaryTests {
    @Test("every host of the list is read with its port (5432 when it has none; IPv6 in brackets)")
    func hostList() throws {
        let hosts = try PostgresDatabaseURL.configurations(
            from: "postgres://tokens:s%40cret@db1:6543,db2,[::1]:5433/sync?sslmode=disable&target_session_attrs=read-write")
        #expect(hosts.map(\.host) == ["db1", "db2", "::1"])
        #expect(hosts.map(\.port) == [6543, 5432, 5433])
        #expect(hosts.allSatisfy { $0.username == "tokens" && $0.password == "s@cret" && $0.database == "sync" })
    }

    @Test(
        "a bad host list, or a session that need not write, is refused without the password",
        arguments: [
            "postgres://u:hunter2@db1,,db2/sync", "postgres://u:hunter2@db1,db2:port/sync", "postgres://u:hunter2@db1,db2:70000/sync",
            "postgres://u:hunter2@db1,db2/sync?target_session_attrs=read-only",
        ])
    func refused(_ url: String) {
        let error = #expect(throws: PostgresDatabaseURL.Problem.self) { try PostgresDatabaseURL.configurations(from: url) }
        #expect(!String(describing: error!).contains("hunter2"))
    }

    @Test(
        "listed after a host where nothing listens, the test cluster is found: the start-up check passes and the store's queries go to it",
        .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason), .timeLimit(.minutes(1)))
    func findsTheOneThatAnswers() async throws {
        #expect(TestPostgres.isAvailable, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        let real = PostgresStartupCheckTests.url()
        // Port 1 of loopback: nothing listens there (connections are refused).
        let url = real.replacingOccurrences(of: "@", with: "@127.0.0.1:1,")
        try await PostgresStartupCheck.check(url: url)
        let primary = try PostgresPrimary(url: url, logger: TestPostgres.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await primary.run() }
            defer { group.cancelAll() }
            await primary.locate()
            let rows = try await primary.client.query("SELECT pg_is_in_recovery()", logger: TestPostgres.logger)
            #expect(try await rows.decode(Bool.self).collected() == [false])
        }
    }

    @Test(
        "once run() has ended, a late search that finds the primary moves to it no more: no client is left running unowned",
        .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason), .timeLimit(.minutes(1)))
    func noMoveAfterRun() async throws {
        #expect(TestPostgres.isAvailable, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        let url = PostgresStartupCheckTests.url().replacingOccurrences(of: "@", with: "@127.0.0.1:1,")
        let primary = try PostgresPrimary(url: url, logger: TestPostgres.logger)
        let first = primary.client
        let running = Task { await primary.run() }
        running.cancel()
        await running.value
        await primary.locate()
        #expect(primary.client === first)
    }
}
