import Foundation
import Logging
import PostgresNIO
import SyncServerData
import Testing

/// The PostgreSQL server the tests use: the throw-away cluster `make test` starts with
/// `pg_virtualenv`, found through the libpq variables it exports (PGHOST, PGPORT, PGUSER,
/// PGPASSWORD). Each test gets a schema of its own, dropped afterwards, so tests can run in
/// parallel against one server.
enum TestPostgres {
    static let environment = ProcessInfo.processInfo.environment
    static var isAvailable: Bool { environment["PGHOST"] != nil }
    /// CI (`TOKENS_REQUIRE_ALL_TESTS=1`) runs the PostgreSQL suites whatever happens: there a
    /// missing server fails instead of skipping.
    static var required: Bool { environment["TOKENS_REQUIRE_ALL_TESTS"] == "1" }
    static let skipReason: Comment = "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"

    static var logger: Logger {
        var logger = Logger(label: "tokens.test.postgres")
        logger.logLevel = .error
        return logger
    }

    static func configuration(searchPath: String?) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: environment["PGHOST"] ?? "localhost", port: environment["PGPORT"].flatMap(Int.init) ?? 5432,
            username: environment["PGUSER"] ?? "postgres", password: environment["PGPASSWORD"],
            database: environment["PGDATABASE"] ?? "postgres", tls: .disable)
        if let searchPath { configuration.options.additionalStartupParameters = [("search_path", searchPath)] }
        return configuration
    }

    /// Runs `body` with a client whose pool runs for as long as `body` does.
    static func withClient(searchPath: String? = nil, _ body: (PostgresClient) async throws -> Void) async throws {
        let client = PostgresClient(configuration: configuration(searchPath: searchPath), backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(client)
        }
    }

    /// Runs `body` with a migrated store in a new schema, dropped afterwards whatever happens.
    static func withStore(_ body: (PostgresSyncServerStore, PostgresClient) async throws -> Void) async throws {
        try await withSchema { schema in
            try await withClient(searchPath: schema) { client in
                let store = PostgresSyncServerStore(client: client, logger: logger)
                try await store.migrate()
                try await body(store, client)
            }
        }
    }

    /// Runs `body` with the name of a new schema (for clients of its own), dropped afterwards
    /// whatever happens.
    static func withSchema(_ body: (String) async throws -> Void) async throws {
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withClient { try await $0.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: logger) }
        do {
            try await body(schema)
        } catch {
            try? await drop(schema)
            throw error
        }
        try await drop(schema)
    }

    private static func drop(_ schema: String) async throws {
        try await withClient { try await $0.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: logger) }
    }
}
