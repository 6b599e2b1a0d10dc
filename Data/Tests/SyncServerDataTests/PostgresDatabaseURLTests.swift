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

    @Test(
        "bad URLs are refused, and the message never holds the password",
        arguments: [
            "mysql://u:hunter2@h/db", "postgres://u:hunter2@/db", "postgres://u:hunter2@h/db?sslmode=maybe", "::::",
            "postgres://u:hunter2@h/db?pool_max_conns=0", "postgres://u:hunter2@h/db?pool_max_conns=1001",
            "postgres://u:hunter2@h/db?pool_max_conns=ten", "postgres://u:hunter2@h/db?pool_max_conns",
        ])
    func refuses(_ url: String) {
        let error = #expect(throws: PostgresDatabaseURL.Problem.self) { try PostgresDatabaseURL.configuration(from: url) }
        #expect(!String(describing: error!).contains("hunter2"))
    }

    /// The pool schedules a timer at every release of a connection above its minimum (idle
    /// timeout) and at every release when keep-alive is on: under load, a timer per query (5 % of
    /// the server's CPU), and a cancelled one holds its task's memory until it would have fired
    /// (250 MB more after a minute of `make loadtest` with the defaults).
    @Test("the pool is of a fixed size (10, or pool_max_conns), so no connection has an idle timer; no keep-alive")
    func poolTimers() throws {
        let options = try PostgresDatabaseURL.configuration(from: "postgres://localhost").options
        #expect(options.minimumConnections == 10 && options.maximumConnections == 10)
        #expect(options.keepAliveBehavior == nil)
        let sized = try PostgresDatabaseURL.configuration(from: "postgres://localhost/db?sslmode=disable&pool_max_conns=3").options
        #expect(sized.minimumConnections == 3 && sized.maximumConnections == 3)
    }
}
