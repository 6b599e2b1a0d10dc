import Foundation
import IntegrationTestSupport
import Testing

/// App/Deploy's nginx example, run as it is (only its address, certificate and upstream port
/// changed for the test): two machines sync through nginx's TLS to a server that trusts it.
@Suite("tokens-server behind the example nginx site")
struct ServerBehindNginxTests {
    typealias CLI = SyncCLITests

    @Test("two machines open, join and sync through nginx; the server names the client nginx saw, never a forged one")
    func syncThroughNginx() async throws {
        let nginx = try #require(ProcessRunner.which("nginx") ?? ["/usr/sbin/nginx"].first(where: FileManager.default.isExecutableFile))
        try await ServerProcessTests.withTwoCertificates { folder, pair, _ in
            let server = try ServerProcess(
                ["--phase", "dev"],
                environment: ["TOKENS_SERVER_PROXIES": "127.0.0.1", "TOKENS_SERVER_SIGNUP": "open", "TOKENS_LOG_LEVEL": "info"])
            let port = try LoopbackPort.free()
            let proxy = try Self.startNginx(nginx, in: folder, port: port, upstream: try #require(server.baseURL.port), pair: pair)
            defer {
                proxy.send(SIGTERM)
                _ = proxy.wait()
            }
            let address = "https://127.0.0.1:\(port)"
            let health = try ProcessRunner.run(
                "curl",
                ["-sS", "--max-time", "20", "--cacert", pair.certificate, "-H", "X-Forwarded-For: 203.0.113.9", "\(address)/v1/health"])
            #expect(health.status == 0 && health.stdout.contains("\"version\""), "\(health.stderr)")

            let laptop = try TemporaryHome()
            let desktop = try TemporaryHome()
            for home in [laptop.url, desktop.url] { try CLI.tokens(["init"], home) }
            try CLI.tokens(["add", "-"], laptop.url, input: CLI.github + "\n")
            try CLI.tokens(["sync", "init", "--server", address, "--ca-file", pair.certificate, "--name", "laptop"], laptop.url)
            let code = try CLI.tokens(["sync", "code"], laptop.url).stdout
            try CLI.tokens(
                ["sync", "join", "--server", address, "--ca-file", pair.certificate, "--name", "desktop"], desktop.url, input: code)
            #expect(try CLI.accounts(desktop.url) == CLI.accounts(laptop.url))
            // The access log names the client nginx saw (127.0.0.1 here), not the header a client forged.
            #expect(await server.waitForLog("client=127.0.0.1"), "\(server.errorLog.suffix(2000))")
            #expect(!server.errorLog.contains("203.0.113.9"))
            #expect(server.stop() == .exited(0))
        }
    }

    /// nginx in the foreground, in a process group of its own, with the example site: listening on
    /// `port` with `pair`, forwarding to `upstream`; returns once it answers.
    static func startNginx(
        _ nginx: String, in folder: URL, port: Int, upstream: Int, pair: (certificate: String, key: String)
    ) throws -> ChildProcess {
        let example = try String(
            contentsOf: RepositoryRoot.url.appendingPathComponent("App/Deploy/nginx-tokens-server.conf"), encoding: .utf8)
        let site = example.replacingOccurrences(of: "    listen 443 ssl;\n", with: "    listen 127.0.0.1:\(port) ssl;\n")
            .replacingOccurrences(of: "    listen [::]:443 ssl;\n", with: "")
            .replacingOccurrences(of: "/etc/letsencrypt/live/sync.example.com/fullchain.pem", with: pair.certificate)
            .replacingOccurrences(of: "/etc/letsencrypt/live/sync.example.com/privkey.pem", with: pair.key)
            .replacingOccurrences(of: "http://127.0.0.1:8787", with: "http://127.0.0.1:\(upstream)")
        #expect(site != example && site.contains("127.0.0.1:\(port) ssl") && site.contains(":\(upstream);"))
        let root = folder.path
        try site.write(to: folder.appendingPathComponent("site.conf"), atomically: true, encoding: .utf8)
        let main = """
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log;
            events { worker_connections 64; }
            http {
                access_log \(root)/access.log;
                client_body_temp_path \(root)/body; proxy_temp_path \(root)/proxy;
                fastcgi_temp_path \(root)/fastcgi; uwsgi_temp_path \(root)/uwsgi; scgi_temp_path \(root)/scgi;
                include \(root)/site.conf;
            }
            """
        try main.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let process = try ChildProcess(
            executable: nginx, arguments: ["-p", root, "-e", "\(root)/error.log", "-c", "\(root)/nginx.conf", "-g", "daemon off;"],
            output: "\(root)/nginx.out", error: "\(root)/nginx.err", ownGroup: true)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning {
            let probe = try ProcessRunner.run(
                "curl", ["-s", "-o", "/dev/null", "--max-time", "5", "--insecure", "https://127.0.0.1:\(port)/v1/health"])
            if probe.status == 0 { return process }
            usleep(50_000)
        }
        let log = (try? String(contentsOfFile: "\(root)/error.log", encoding: .utf8)) ?? ""
        process.send(SIGKILL)
        _ = process.wait()
        throw NginxError(log: log)
    }
}

/// nginx did not answer within its time; its error log says why.
struct NginxError: Error, CustomStringConvertible {
    let log: String
    var description: String { "nginx did not start: \(log)" }
}
