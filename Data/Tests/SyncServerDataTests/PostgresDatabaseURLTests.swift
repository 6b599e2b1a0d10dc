import SyncServerData
import Testing

/// Database URLs: read whole, refused with a reason that never shows the password.
@Suite("PostgreSQL database URLs")
struct PostgresDatabaseURLTests {
    @Test("user, password, host, port and database are read; defaults fill the rest")
    func reads() throws {
        let full = try PostgresDatabaseURL.configuration(from: "postgres://tokens:s%40cret@db.example:6543/sync?sslmode=disable")
        #expect(full.host == "db.example" && full.port == 6543)
        #expect(full.username == "tokens" && full.password == "s@cret" && full.database == "sync")
        let plain = try PostgresDatabaseURL.configuration(from: "postgresql://localhost")
        #expect(plain.port == 5432 && plain.username == "postgres" && plain.password == nil && plain.database == nil)
    }

    @Test("bad URLs are refused, and the message never holds the password", arguments: [
        "mysql://u:hunter2@h/db", "postgres://u:hunter2@/db", "postgres://u:hunter2@h/db?sslmode=maybe", "::::",
    ])
    func refuses(_ url: String) {
        let error = #expect(throws: PostgresDatabaseURL.Problem.self) { try PostgresDatabaseURL.configuration(from: url) }
        #expect(!String(describing: error!).contains("hunter2"))
    }

    /// The pool schedules a timer at every release of a connection (keep-alive, idle timeout); a
    /// cancelled one holds its task's memory until it would have fired. With the defaults (30 s,
    /// 60 s) a server at a thousand requests a second held 250 MB more after a minute of
    /// `make loadtest`; with these it stays flat.
    @Test("the pool's timers are short: no keep-alive (idle connections close first), 10 s idle timeout")
    func poolTimers() throws {
        let options = try PostgresDatabaseURL.configuration(from: "postgres://localhost").options
        #expect(options.keepAliveBehavior == nil)
        #expect(options.connectionIdleTimeout == .seconds(10))
    }
}
