import Foundation
import IntegrationTestSupport
import ProcessKit
import SyncModelTestSupport
import Synchronization

/// The real `tokens-server` on a PostgreSQL database of its own, as the lifecycle model check
/// drives it: a backup is `pg_dump`, a restore stops the server, puts the dump back with
/// `pg_restore` and starts the server again on the same port (its sequences go back; the
/// generation the server names changes, as after an operator's restore). Its processes are
/// started and waited for off the cooperative pool.
final class ModelServerOnPostgres: ModelServerHost {
    private let database: String
    private let environment: [String: String]
    private let server: Mutex<ServerProcess>
    private let dump: String
    private let dumped = Mutex(false)

    private init(database: String, environment: [String: String], server: ServerProcess) {
        self.database = database
        self.environment = environment
        self.server = Mutex(server)
        dump = FileManager.default.temporaryDirectory.appendingPathComponent("model-\(database).dump").path
    }

    /// The server started on database `database` (at `url`).
    static func start(database: String, url: String) async throws -> ModelServerOnPostgres {
        let environment = ["TOKENS_SERVER_DATABASE_URL": url]
        let server = try await offThePool { try ServerProcess(["--phase", "alpha"], environment: environment) }
        return ModelServerOnPostgres(database: database, environment: environment, server: server)
    }

    var url: URL { server.withLock { $0.baseURL } }

    func backup() async throws {
        try await offThePool { [self] in try run("pg_dump", ["-Fc", "-f", dump]) }
        dumped.withLock { $0 = true }
    }

    func restore() async throws -> Bool {
        guard dumped.withLock({ $0 }) else { return false }
        let port = url.port ?? 0
        try await offThePool { [self] in
            try server.withLock { server in
                guard server.stop() == .exited(0) else {
                    throw ModelServerError(message: "tokens-server did not stop cleanly:\n\(server.errorLog)")
                }
                try run("pg_restore", ["--clean", "--if-exists", "-d", database, dump])
                server = try ServerProcess(["--phase", "alpha"], environment: environment, port: port)
            }
        }
        return true
    }

    /// Stops the server (SIGTERM) and removes the dump.
    func stop() async {
        _ = try? await offThePool { [self] in
            server.withLock { _ = $0.stop() }
            try? FileManager.default.removeItem(atPath: dump)
        }
    }

    private func run(_ command: String, _ arguments: [String]) throws {
        var variables = ProcessInfo.processInfo.environment
        variables["PGDATABASE"] = database
        let result = try ProcessRunner.run(command, arguments, environment: variables)
        guard result.status == 0 else { throw ModelServerError(message: "\(command) failed: \(result.stderr)") }
    }
}

struct ModelServerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
