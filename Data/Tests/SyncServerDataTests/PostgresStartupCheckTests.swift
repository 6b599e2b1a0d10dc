import Foundation
import Testing

@testable import SyncServerData

/// The server's first connection, against the test cluster: each way a database cannot be used
/// is told as its own cause, never with the password; text from the database is made printable.
@Suite("The database check at start-up", .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason))
struct PostgresStartupCheckTests {
    static let environment = TestPostgres.environment

    /// The cluster's URL with `password` (the real one when nil) and `database`.
    static func url(password: String? = nil, database: String? = nil, port: Int? = nil) -> String {
        let user = environment["PGUSER"] ?? "postgres"
        let secret = password ?? environment["PGPASSWORD"] ?? ""
        let host = port == nil ? environment["PGHOST"] ?? "localhost" : "127.0.0.1"
        return "postgres://\(user):\(secret)@\(host):\(port ?? Int(environment["PGPORT"] ?? "") ?? 5432)/"
            + "\(database ?? environment["PGDATABASE"] ?? "postgres")?sslmode=disable"
    }

    @Test("the cluster itself passes; a wrong password, a missing database and a bad URL each fail with their cause")
    func causes() async throws {
        #expect(TestPostgres.isAvailable, "PGHOST is not set, and TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        try await PostgresStartupCheck.check(url: Self.url())
        let user = Self.environment["PGUSER"] ?? "postgres"
        await #expect(throws: PostgresStartupCheck.Failure.passwordRefused(user: user)) {
            try await PostgresStartupCheck.check(url: Self.url(password: "not-the-password"))
        }
        await #expect(throws: PostgresStartupCheck.Failure.noSuchDatabase("tokens_no_such_database")) {
            try await PostgresStartupCheck.check(url: Self.url(database: "tokens_no_such_database"))
        }
        await #expect(throws: PostgresStartupCheck.Failure.url(.wrongScheme)) {
            try await PostgresStartupCheck.check(url: "mysql://localhost/x")
        }
        let failure = PostgresStartupCheck.Failure.passwordRefused(user: user)
        #expect(!"\(failure)".contains("not-the-password"))
    }

    @Test("the database's own words reach the terminal only as printable ASCII")
    func printable() {
        #expect(PostgresStartupCheck.printable("role \u{1B}[31m\"x\"\n\u{7F}é") == "role ?[31m\"x\"???")
    }
}
