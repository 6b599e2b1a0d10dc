import Foundation
import IntegrationTestSupport
import ProcessKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tokens-server`'s `/metrics`, read by Prometheus's own tools: `promtool check metrics`
/// lints what it serves, and a real Prometheus scrapes it and answers a query. Bounded: the
/// scrape is awaited for at most 60 s.
@Suite(
    "tokens-server's metrics, read by Prometheus",
    .enabled(
        if: (ProcessRunner.which("promtool") != nil && ProcessRunner.which("prometheus") != nil) || RequiredTests.all,
        "Prometheus is not installed (make deps-test installs it)"))
struct ServerMetricsTests {
    /// A server with metrics on a port of their own, after a round trip and a conflicting push.
    static func serverWithTraffic() async throws -> (server: ServerProcess, metrics: URL, token: String) {
        let server = try ServerProcess(["--phase", "dev", "--metrics-port", "0"])
        let metrics = try #require(await server.metricsURL())
        let token = try await ServerProcessTests.roundTrip(server, ciphertext: Data("opaque".utf8))
        // The entry the round trip pushed, pushed again as new: a conflict.
        let pulled = try await server.request("GET", "/v1/entries?after=0", token: token)
        let id = try #require((ServerProcessTests.json(pulled.body)["entries"] as? [[String: Any]])?.first?["id"] as? String)
        var again = ServerProcessTests.newEntry(Data("other".utf8))
        if var changes = again["changes"] as? [[String: Any]] {
            changes[0]["id"] = id
            again["changes"] = changes
        }
        let conflict = try await server.request("POST", "/v1/entries", json: again, token: token)
        #expect(conflict.status == 200)
        return (server, metrics, token)
    }

    static func text(at url: URL) async throws -> String {
        let (data, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        return String(decoding: data, as: UTF8.self)
    }

    @Test(
        "promtool accepts /metrics; requests by route template and status, pushes by outcome, refusals; no id or token in it; the API's port does not serve it"
    )
    func promtoolAccepts() async throws {
        let (server, metrics, token) = try await Self.serverWithTraffic()
        let text = try await Self.text(at: metrics)
        let lint = try ProcessRunner.run("promtool", ["check", "metrics"], input: text, timeout: 60)
        #expect(lint.status == 0, "promtool: \(lint.stdout) \(lint.stderr)")
        #expect(text.contains(#"tokens_sync_push_changes_total{outcome="applied"} 1"#))
        #expect(text.contains(#"tokens_sync_push_changes_total{outcome="conflict"} 1"#))
        #expect(text.contains(#"tokens_sync_refusals_total{reason="unauthorized"} 1"#))
        #expect(text.contains(#"hb_requests_total{http_route="/v1/entries",http_request_method="POST",http_response_status_code="200"} 2"#))
        #expect(text.contains("http_server_request_duration_seconds_bucket{"))
        let uuid = try Regex("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-")
        #expect(text.firstMatch(of: uuid) == nil, "an id in a label")
        #expect(!text.contains(token))
        #expect(try await server.request("GET", "/metrics").status == 404)
        #expect(server.stop() == .exited(0))
    }

    @Test("a real Prometheus scrapes it, and a query of pushes by outcome answers what was pushed")
    func prometheusScrapes() async throws {
        let (server, metrics, _) = try await Self.serverWithTraffic()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prometheus-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("prometheus.yml")
        try """
        global:
          scrape_interval: 1s
          scrape_timeout: 1s
        scrape_configs:
          - job_name: tokens-server
            static_configs:
              - targets: ["\(metrics.host ?? "127.0.0.1"):\(metrics.port ?? 0)"]
        """.write(to: config, atomically: true, encoding: .utf8)
        let port = try LoopbackPort.free()
        let prometheus = try ChildProcess(
            executable: try #require(ProcessRunner.which("prometheus")),
            arguments: [
                "--config.file=\(config.path)", "--storage.tsdb.path=\(folder.appendingPathComponent("data").path)",
                "--web.listen-address=127.0.0.1:\(port)",
            ],
            output: folder.appendingPathComponent("out").path, error: folder.appendingPathComponent("err").path)
        defer {
            prometheus.send(SIGTERM)
            _ = prometheus.wait()
        }
        let query = "sum by (outcome) (tokens_sync_push_changes_total)"
        let encoded = try #require(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/api/v1/query?query=\(encoded)"))
        var outcomes: [String: String] = [:]
        let deadline = Date().addingTimeInterval(60)
        while outcomes.count < 2, prometheus.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(500))
            guard let (data, _) = try? await URLSession.shared.data(from: url),
                let answer = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let result = (answer["data"] as? [String: Any])?["result"] as? [[String: Any]]
            else { continue }
            for series in result {
                if let outcome = (series["metric"] as? [String: String])?["outcome"], let value = series["value"] as? [Any] {
                    outcomes[outcome] = value.last as? String
                }
            }
        }
        let log = (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? ""
        #expect(outcomes == ["applied": "1", "conflict": "1"], "Prometheus's log: \(log.suffix(2000))")
        #expect(server.stop() == .exited(0))
    }
}
