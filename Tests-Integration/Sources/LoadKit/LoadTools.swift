import Foundation
import ProcessKit

/// What one run of a load tool measured.
public struct LoadFigures: Codable, Sendable {
    /// Completed requests (wrk) or transactions (pgbench) per second.
    public var perSecond: Double
    public var completed: Int
    /// Answers other than 2xx (wrk), failed transactions (pgbench), plus socket errors.
    public var failures: Int
    /// Pushes answered "conflict" (none expected: each client is alone on its account).
    public var conflicts: Int = 0
    public var p50Milliseconds: Double?
    public var p99Milliseconds: Double?
    /// The server's processor time per completed request (wrk runs only).
    public var serverCPUMilliseconds: Double?
    /// The whole machine's busy processor time per completed request or transaction: every
    /// program's share of it together (`MachineCPU`).
    public var machineCPUMilliseconds: Double?

    /// Processor seconds read `before` and `after` a run, as milliseconds per one of its
    /// `completed` requests; nil without both readings or a request.
    static func milliseconds(from before: Double?, to after: Double?, per completed: Int) -> Double? {
        guard let before, let after, completed > 0 else { return nil }
        return (after - before) * 1000 / Double(completed)
    }
}

/// wrk with Tests-Integration/Load/sync.lua: one thread per connection, each a client.
public struct Wrk: Sendable {
    public let script: URL

    public init(repository root: URL) {
        script = root.appendingPathComponent("Tests-Integration/Load/sync.lua")
    }

    /// Runs `workload` for `seconds` against `url` with one connection per client in
    /// `clientsFile`; `delayMilliseconds` before each request when given (a lower, steady rate).
    public func run(
        _ workload: String, url: URL, clientsFile: URL, connections: Int, seconds: Int, delayMilliseconds: Int = 0
    ) throws -> LoadFigures {
        let result = try ProcessRunner.run(
            "wrk",
            [
                "-t", "\(connections)", "-c", "\(connections)", "-d", "\(seconds)s", "--timeout", "10s", "-s", script.path,
                url.absoluteString, "--", workload, "\(delayMilliseconds)",
            ],
            environment: ProcessInfo.processInfo.environment.merging(["TOKENS_LOAD_CLIENTS": clientsFile.path]) { $1 },
            timeout: TimeInterval(seconds + 60))
        guard result.status == 0,
            let line = result.stdout.split(separator: "\n").first(where: { $0.hasPrefix("RESULT ") }),
            let json = try? JSONSerialization.jsonObject(with: Data(line.dropFirst("RESULT ".count).utf8)) as? [String: Int]
        else { throw LoadError.tool("wrk failed (status \(result.status)): \(result.stdout)\(result.stderr)") }
        let seconds = Double(json["microseconds"] ?? 1) / 1e6
        return LoadFigures(
            perSecond: Double(json["requests"] ?? 0) / seconds, completed: json["requests"] ?? 0,
            failures: (json["non2xx"] ?? 0) + (json["socketErrors"] ?? 0), conflicts: json["conflicts"] ?? 0,
            p50Milliseconds: Double(json["p50Microseconds"] ?? 0) / 1000, p99Milliseconds: Double(json["p99Microseconds"] ?? 0) / 1000)
    }
}

/// pgbench running one workload's section of sync.pgbench on the server's database.
public struct Pgbench: Sendable {
    public let script: PgbenchScript

    public init(script: PgbenchScript) {
        self.script = script
    }

    /// The values the scripts bind where the server binds a request's (the same sizes).
    static let variables: [String: String] = [
        "ready": "0", "channel": "tokens_sync_changed", "deleted": "false", "key_version": "1",
        "nonce": "\\x" + String(repeating: "00", count: 12), "ciphertext": "\\x" + String(repeating: "2a", count: 256),
        "changed_at": "2026-01-01 00:00:00+00", "after": "0", "page": "501",
        // The server's default quota (server.quota.entries, server.quota.bytes).
        "quota_entries": "10000", "quota_bytes": "\(64 * 1024 * 1024)",
        // Arrays of one, as array literals (an element's backslash doubled inside its quotes).
        "deleted_flags": "{false}", "key_versions": "{1}", "nonces": #"{"\\x"# + String(repeating: "00", count: 12) + "\"}",
        "ciphertexts": #"{"\\x"# + String(repeating: "2a", count: 256) + "\"}",
    ]

    /// Runs `workload` for `seconds` with `clients` connections on `database` (the cluster is the
    /// one in the environment: PGHOST, PGPORT, PGUSER, PGPASSWORD).
    public func run(_ workload: String, database: String, clients: Int, seconds: Int) throws -> LoadFigures {
        guard let section = script.sections[workload] else { throw LoadError.tool("sync.pgbench has no workload \(workload)") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(workload)-\(UUID()).pgbench")
        try section.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var arguments = ["-n", "-M", "extended", "-c", "\(clients)", "-j", "\(min(clients, 2))", "-T", "\(seconds)", "-f", file.path]
        for (name, value) in Self.variables.sorted(by: { $0.key < $1.key }) { arguments += ["-D", "\(name)=\(value)"] }
        arguments.append(database)
        let result = try ProcessRunner.run(
            "pgbench", arguments, environment: ProcessInfo.processInfo.environment, timeout: TimeInterval(seconds + 60))
        let output = result.stdout + result.stderr
        guard result.status == 0, let tps = Self.number(after: "tps = ", in: output),
            let done = Self.number(after: "number of transactions actually processed: ", in: output)
        else { throw LoadError.tool("pgbench failed (status \(result.status)): \(output)") }
        let failed = Self.number(after: "number of failed transactions: ", in: output) ?? 0
        return LoadFigures(
            perSecond: tps, completed: Int(done), failures: Int(failed),
            p50Milliseconds: nil, p99Milliseconds: nil)
    }

    private static func number(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
}
