import Foundation
import PostgresNIO
import SyncServer
import SyncServerTestSupport
import Testing

@testable import SyncServerData

/// The PostgreSQL store against a real server: the same contract as the in-memory store, plus
/// what only a database can get wrong (migrations run twice, concurrent pushes).
@Suite("Sync server store contract: PostgreSQL", .enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipReason))
struct PostgresSyncServerStoreTests {
    @Test("PostgreSQL is there")
    func serverIsPresent() {
        #expect(TestPostgres.isAvailable, "PGHOST is not set, and TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
    }

    @Test("the PostgreSQL store keeps the contract", arguments: SyncServerStoreContract.clauses.map(\.name))
    func contract(_ clause: String) async throws {
        let run = try #require(SyncServerStoreContract.clauses.first { $0.name == clause }?.run)
        try await TestPostgres.withStore { store, _ in try await run(store) }
    }

    @Test("data replaced under the server (a restore: the account table's file is new) is a new generation")
    func restoredDataIsANewGeneration() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            let before = try await store.generation()
            try await client.query("TRUNCATE sync_account CASCADE", logger: TestPostgres.logger)
            try await SyncServerStoreContract.seeded(store)
            #expect(try await store.generation() == before, "read again only after a few seconds")
            #expect(try await PostgresSyncServerStore(client: client, logger: TestPostgres.logger).generation() != before)
        }
    }

    @Test("migrating again changes nothing; the schema's version is recorded once")
    func migrationsAreIdempotent() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            try await store.migrate()
            try await store.migrate()
            let rows = try await client.query("SELECT version FROM schema_migration ORDER BY version", logger: TestPostgres.logger)
            var versions: [Int32] = []
            for try await version in rows.decode(Int32.self) { versions.append(version) }
            #expect(versions == Array(1...Int32(PostgresSchema.migrations.count)))
            #expect(try await store.account(SyncServerStoreContract.account) != nil)
        }
    }

    @Test("a schema newer than this release knows (a newer server migrated it): refused with one sentence, nothing changed")
    func newerSchemaRefused() async throws {
        try await TestPostgres.withStore { store, client in
            try await client.query("INSERT INTO schema_migration (version) VALUES (99)", logger: TestPostgres.logger)
            let known = PostgresSchema.migrations.count
            await #expect(throws: PostgresMigrationError.newerSchema(database: 99, known: known)) { try await store.migrate() }
            #expect(
                "\(PostgresMigrationError.newerSchema(database: 99, known: known))"
                    == "the database's tables are at schema version 99, newer than this tokens-server knows (\(known)): "
                    + "run the release that upgraded them, or restore a backup made before")
            let rows = try await client.query("SELECT count(*) FROM schema_migration", logger: TestPostgres.logger)
            #expect(try await rows.decode(Int64.self).collected() == [Int64(known + 1)])
        }
    }

    @Test("concurrent pushes to one account: every write gets its own sequence, and a pull from 0 sees them all in order")
    func concurrentPushes() async throws {
        try await TestPostgres.withStore { store, _ in
            try await SyncServerStoreContract.seeded(store)
            let account = SyncServerStoreContract.account
            let start = SyncServerStoreContract.start
            // 4 writers × 10 pushes of 2 new entries each: bounded in count, not in time.
            let sequences = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        var applied: [Int64] = []
                        for push in 0..<10 {
                            let base = UInt8(writer * 20 + push * 2)
                            let results = try await store.push(
                                [ServerSamples.change(base, "w\(writer)"), ServerSamples.change(base + 1, "w\(writer)")],
                                to: account, at: start)
                            for case .applied(let sequence) in results { applied.append(sequence) }
                        }
                        return applied
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            #expect(sequences.sorted() == Array(1...80))
            let pulled = try await store.changes(of: account, after: 0, limit: 500)
            #expect(pulled.map(\.sequence) == Array(1...80))
            #expect(try await store.head(of: account) == 80)
        }
    }

    @Test(
        "concurrent pushes of one entry, each based on what its writer last saw: every write applied is based on the one before, none lost")
    func concurrentWritersOfOneEntry() async throws {
        try await TestPostgres.withStore { store, _ in
            try await SyncServerStoreContract.seeded(store)
            let account = SyncServerStoreContract.account
            let start = SyncServerStoreContract.start
            // 4 writers × 8 writes each; a conflict tells a writer the current sequence, and it
            // tries again on that. Bounded in count: at most 200 tries a writer.
            let applied = try await withThrowingTaskGroup(of: [(basedOn: Int64, sequence: Int64)].self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        var mine: [(basedOn: Int64, sequence: Int64)] = []
                        var seen: Int64 = 0
                        var tries = 0
                        while mine.count < 8, tries < 200 {
                            tries += 1
                            let text = "w\(writer)-\(mine.count)"
                            let change = ServerSamples.change(1, basedOn: seen, text, nonce: UInt8(writer * 10 + mine.count))
                            switch try await store.push([change], to: account, at: start).first {
                            case .applied(let sequence):
                                mine.append((seen, sequence))
                                seen = sequence
                            case .conflict(let current): seen = current.sequence
                            case nil: Issue.record("no result")
                            }
                        }
                        return mine
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(applied.count == 32)
            // Sorted by sequence, each write is based on the one before: a write decided on a
            // stale read would be based on an older one.
            let chain = applied.sorted { $0.sequence < $1.sequence }
            #expect(chain.map(\.sequence) == Array(1...32))
            #expect(chain.map(\.basedOn) == [0] + Array(1...31))
            #expect(try await store.earlierEntries(of: account, after: 0, limit: 100).map(\.entry.sequence) == Array(1...31))
        }
    }

    @Test("a write that fails inside the push's statement fails the push: never acknowledged, nothing stored")
    func failedWriteIsNotAcknowledged() async throws {
        try await TestPostgres.withStore { store, client in
            try await SyncServerStoreContract.seeded(store)
            let account = SyncServerStoreContract.account
            let start = SyncServerStoreContract.start
            // As a full disk would: the database refuses the entry's row while the statement runs.
            try await client.query(
                """
                CREATE FUNCTION refuse_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                IF NEW.key_version = 99 THEN RAISE EXCEPTION 'no room'; END IF; RETURN NEW; END $$
                """, logger: TestPostgres.logger)
            try await client.query(
                "CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON entry FOR EACH ROW EXECUTE FUNCTION refuse_entry()",
                logger: TestPostgres.logger)
            _ = try await store.push([ServerSamples.change(1, "kept")], to: account, at: start)
            var refused = ServerSamples.change(2, "refused")
            refused = EntryChange(
                id: refused.id, basedOn: 0,
                payload: EntryPayload(
                    isDeleted: false, keyVersion: 99, nonce: refused.payload.nonce, ciphertext: refused.payload.ciphertext))
            await #expect(throws: (any Error).self) { try await store.push([refused], to: account, at: start) }
            #expect(try await store.changes(of: account, after: 0, limit: 10).map(\.sequence) == [1])
            #expect(try await store.head(of: account) == 1)
        }
    }
}
