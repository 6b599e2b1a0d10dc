import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real `tokens-server` as a child process on a free loopback port, for tests that talk to
/// it over HTTP and stop it with SIGTERM. Bounded in time: a server that does not listen within
/// 60 s, or does not stop within 30 s, fails the test.
public final class ServerProcess: Sendable {
    public let child: ChildProcess
    public let baseURL: URL
    private let directory: URL

    /// The binary: `$TOKENS_SERVER_BIN` (the Makefile sets it), else App's debug build, built on demand.
    public static let binary = TokensProcess.executable("tokens-server", variable: "TOKENS_SERVER_BIN")

    /// Starts the server with `arguments` (plus `--host 127.0.0.1 --port PORT`, 0 by default:
    /// a free one) and waits for the line that names its port.
    public init(_ arguments: [String], environment: [String: String] = [:], port requested: Int = 0) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = directory.appendingPathComponent("out")
        var variables = TokensProcess.environment(home: directory, extra: environment)
        variables["TOKENS_LOG_LEVEL"] = variables["TOKENS_LOG_LEVEL"] ?? "trace"
        // The test process's synchronous process helpers can hold its cooperative threads for
        // many seconds (its process helpers wait synchronously), so a request body may trickle out of it slower than a real
        // client's: the request and idle deadlines are the tests' own unless a test sets them
        // (ServerConnectionLimitsTests does, to check them).
        for name in ["TOKENS_SERVER_REQUEST_TIMEOUT", "TOKENS_SERVER_IDLE_TIMEOUT"] { variables[name] = variables[name] ?? "600" }
        child = try ChildProcess(
            executable: Self.binary, arguments: arguments + ["--host", "127.0.0.1", "--port", String(requested)], environment: variables,
            output: output.path, error: directory.appendingPathComponent("err").path)
        let deadline = Date().addingTimeInterval(60)
        var port: Int?
        while port == nil, child.isRunning, Date() < deadline {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            port = text.split(separator: "\n").first { $0.contains("listening on http") }
                .flatMap { $0.split(separator: ":").last }.flatMap { Int($0) }
            if port == nil { usleep(20_000) }
        }
        guard let port else {
            child.send(SIGKILL)
            _ = child.wait()
            let log = (try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? ""
            throw ServerProcessError(log: log)
        }
        let scheme = arguments.contains("--tls-certificate") ? "https" : "http"
        baseURL = URL(string: "\(scheme)://127.0.0.1:\(port)")!
    }

    /// Where `GET /metrics` answers, when the server was started with `--metrics-port`: from the
    /// line that names its port, awaited up to `seconds` (the API's may come first).
    public func metricsURL(within seconds: TimeInterval = 30) async -> URL? {
        let prefix = "tokens-server metrics on "
        let deadline = Date().addingTimeInterval(seconds)
        // Read once more after the deadline, as `waitForLog` does: a test process whose threads
        // were all held (every suite runs at once) may wake past it, the line there by then.
        while true {
            let text = (try? String(contentsOf: directory.appendingPathComponent("out"), encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                return URL(string: String(line.dropFirst(prefix.count)))
            }
            if Date() >= deadline || !child.isRunning { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// What the server wrote to standard error (its logs).
    public var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? ""
    }

    /// Waits up to `seconds` until the server's log has `count` lines containing `text`.
    /// The log is read once more after the deadline: a test process whose threads were all
    /// held (every suite runs at once) may wake past it, and the line may be there by then.
    public func waitForLog(_ text: String, count: Int = 1, seconds: TimeInterval = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        let found = { self.errorLog.split(separator: "\n").count(where: { $0.contains(text) }) >= count }
        while Date() < deadline {
            if found() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return found()
    }

    /// SIGTERM, then waits up to `seconds` for a graceful exit; SIGKILL after that. The termination.
    @discardableResult
    public func stop(within seconds: TimeInterval = 30) -> ChildProcess.Termination {
        child.send(SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while child.isRunning, Date() < deadline { usleep(10_000) }
        if child.isRunning { child.send(SIGKILL) }
        return child.wait()
    }

    deinit {
        if child.isRunning {
            child.send(SIGKILL)
            _ = child.wait()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// One request (to the server, or `via` a proxy in front of it): status, body, content type
    /// and Retry-After.
    public func request(
        _ method: String, _ path: String, json: Any? = nil, token: String? = nil, headers: [String: String] = [:], via: URL? = nil
    ) async throws -> (status: Int, body: Data, contentType: String?, retryAfter: String?) {
        var request = URLRequest(url: URL(string: (via ?? baseURL).absoluteString + path)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (
            http?.statusCode ?? 0, data, http?.value(forHTTPHeaderField: "Content-Type"), http?.value(forHTTPHeaderField: "Retry-After")
        )
    }
}

/// The server did not say it was listening.
public struct ServerProcessError: Error, CustomStringConvertible {
    public let log: String
    public var description: String { "tokens-server did not start listening; its log:\n\(log)" }
}
