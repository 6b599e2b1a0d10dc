import Foundation
import IntegrationTestSupport
import Testing

/// `tokens-server` against clients that open connections and send half a request:
/// each connection has a deadline for its request, and the connections it keeps are capped from
/// one address and in all, so that everyone else is still served. The attacking clients come
/// from other loopback addresses (127.0.0.2, .3) than the one checking health (127.0.0.1).
@Suite("tokens-server connection limits")
struct ServerConnectionLimitsTests {
    static let halfRequest = "GET /v1/health HTTP/1.1\r\nHost: tokens\r\nX-Slow: "

    /// Waits until `count` of `connections` are closed by the server (at most 30 s); their indices.
    static func closed(_ count: Int, of connections: [RawConnection]) -> Set<Int> {
        var closed = Set<Int>()
        let deadline = Date().addingTimeInterval(30)
        while closed.count < count, Date() < deadline {
            for index in connections.indices where !closed.contains(index) && connections[index].closedByServer(within: 0) {
                closed.insert(index)
            }
            if closed.count < count { usleep(50_000) }
        }
        return closed
    }

    /// Opens `count` connections from `source`, each sending half a request.
    static func slowClients(_ count: Int, to server: ServerProcess, from source: String) throws -> [RawConnection] {
        let port = try #require(server.baseURL.port)
        return try (0..<count).map { _ in
            let connection = try RawConnection(port: port, from: source)
            try connection.send(halfRequest)
            return connection
        }
    }

    @Test("half a request is cut off after the request timeout; a kept-alive connection left idle after its answer, after the idle timeout")
    func requestTimeout() throws {
        let server = try ServerProcess(
            ["--phase", "dev"], environment: ["TOKENS_SERVER_REQUEST_TIMEOUT": "1", "TOKENS_SERVER_IDLE_TIMEOUT": "1"])
        let port = try #require(server.baseURL.port)
        let slow = try RawConnection(port: port, from: "127.0.0.2")
        try slow.send(Self.halfRequest)
        #expect(slow.closedByServer(within: 30))
        let idle = try RawConnection(port: port, from: "127.0.0.2")
        try idle.send("GET /v1/health HTTP/1.1\r\nHost: tokens\r\n\r\n")
        #expect(idle.closedByServer(within: 30))
        #expect(server.stop() == .exited(0))
    }

    @Test(
        "past the cap from one address, connections are closed at once and the log says so; the ones kept stay, other addresses are served")
    func perAddressCap() async throws {
        let server = try ServerProcess(
            ["--phase", "dev"], environment: ["TOKENS_SERVER_CONNECTIONS_PER_ADDRESS": "8", "TOKENS_SERVER_REQUEST_TIMEOUT": "600"])
        let attack = try Self.slowClients(20, to: server, from: "127.0.0.2")
        #expect(Self.closed(12, of: attack).count == 12)
        let kept = attack.filter { !$0.closedByServer(within: 0.2) }
        #expect(kept.count == 8, "the 8 within the cap are kept")
        #expect(try await server.request("GET", "/v1/health").status == 200)
        #expect(await server.waitForLog("refusing connections: 8 open from one address (server.connections.per.address)"))
        #expect(server.stop() == .exited(0))
    }

    @Test("past the cap in all, connections are closed at once whatever their address; once some close, the server serves again")
    func totalCap() async throws {
        let server = try ServerProcess(
            ["--phase", "dev"], environment: ["TOKENS_SERVER_CONNECTIONS_MAX": "10", "TOKENS_SERVER_REQUEST_TIMEOUT": "600"])
        var attack = try Self.slowClients(6, to: server, from: "127.0.0.2") + Self.slowClients(9, to: server, from: "127.0.0.3")
        #expect(Self.closed(5, of: attack).count == 5)
        #expect(await server.waitForLog("refusing connections: 10 open in all (server.connections.max)"))
        attack.removeAll()
        // Bounded by tries as well as time: on a busy machine the test's own threads may wait
        // longer than the deadline between two tries (a deadline alone gave one try, then none).
        var status = 0
        var tries = 0
        let deadline = Date().addingTimeInterval(30)
        while status != 200, tries < 20 || Date() < deadline, tries < 200 {
            if tries > 0 { try await Task.sleep(for: .milliseconds(100)) }
            tries += 1
            status = (try? await server.request("GET", "/v1/health").status) ?? 0
        }
        #expect(status == 200)
        #expect(server.stop() == .exited(0))
    }

    @Test(
        "300 clients from one address sending half a request, with the default limits: the server keeps 64 of them open and answers health")
    func slowClientsAttack() async throws {
        let server = try ServerProcess(["--phase", "dev"])
        let attack = try Self.slowClients(300, to: server, from: "127.0.0.2")
        #expect(Self.closed(236, of: attack).count == 236)
        #expect(try await server.request("GET", "/v1/health").status == 200)
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.child.pid)/fd").count
        #expect(descriptors < 64 + 100, "\(descriptors) descriptors open with 300 slow clients")
        withExtendedLifetime(attack) {}
        #expect(server.stop() == .exited(0))
    }

    /// A device enrolled in a new account on `server`: its bearer token.
    static func deviceToken(on server: ServerProcess) async throws -> String {
        let account = UUID().uuidString.lowercased()
        let authKey = ServerProcessTests.authKey
        #expect(try await server.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": authKey]).status == 201)
        let enrolled = try await server.request("POST", "/v1/accounts/\(account)/devices", json: ["authKey": authKey, "name": "laptop"])
        return try #require(ServerProcessTests.json(enrolled.body)["token"] as? String)
    }

    /// A long-poll of 30 s sent whole on a new connection from 127.0.0.2.
    static func longPoll(_ server: ServerProcess, token: String) throws -> RawConnection {
        let connection = try RawConnection(port: try #require(server.baseURL.port), from: "127.0.0.2")
        try connection.send("GET /v1/entries?after=0&wait=30 HTTP/1.1\r\nHost: tokens\r\nAuthorization: Bearer \(token)\r\n\r\n")
        return connection
    }

    @Test("long-polls: 4 wait per device and the 5th is refused at once (429); walked away from, they end at once and make room")
    func abandonedLongPolls() async throws {
        let server = try ServerProcess(["--phase", "dev"])
        let token = try await Self.deviceToken(on: server)
        // 5 sent at once: whichever comes last is refused, the 4 others wait.
        var waiting = try (0..<5).map { _ in try Self.longPoll(server, token: token) }
        var answered: (index: Int, head: String)?
        let first = Date().addingTimeInterval(20)
        while answered == nil, Date() < first {
            for (index, connection) in waiting.enumerated() {
                if let head = connection.responseHead(within: 0.05) {
                    answered = (index, head)
                    break
                }
            }
        }
        let refused = try #require(answered, "one of 5 is refused")
        #expect(refused.head.hasPrefix("HTTP/1.1 429") && refused.head.contains("Retry-After: 5"), "\(refused.head)")
        waiting.remove(at: refused.index)
        #expect(waiting.allSatisfy { $0.responseHead(within: 0.2) == nil }, "the 4 others wait")
        // The client walks away from its 4 waiting pulls; within the 30 s they would wait, a new
        // one is let wait again (not refused), because the abandoned ones ended.
        waiting.removeAll()
        // Bounded by tries as well as time (see totalCap).
        var admitted = false
        var tries = 0
        let deadline = Date().addingTimeInterval(20)
        while !admitted, tries < 10 || Date() < deadline, tries < 100 {
            tries += 1
            let again = try Self.longPoll(server, token: token)
            admitted = again.responseHead(within: 1) == nil
        }
        #expect(admitted, "a pull waits again once the abandoned ones ended")
        #expect(server.stop() == .exited(0))
    }

    /// The server's peak resident memory so far, in bytes (VmHWM).
    static func peakMemory(of server: ServerProcess) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(server.child.pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ").dropFirst().first ?? "")) * 1024
    }

    @Test(
        "bodies from clients without a valid token: 60 pushes of 4 MiB each are refused from their headers, unread, and the server stays under 150 MB"
    )
    func unauthenticatedBodies() async throws {
        let server = try ServerProcess(["--phase", "dev"])
        let port = try #require(server.baseURL.port)
        let bogus = Data(repeating: 7, count: 32).base64EncodedString()
        let size = 4 * 1024 * 1024
        // 60 clients at once, half with a token nobody was given, half with none: each sends its
        // headers, then its body a chunk at a time, round the 60, as far as the server takes it.
        let clients = try (0..<60).map { _ in try RawConnection(port: port, from: "127.0.0.2") }
        for (index, client) in clients.enumerated() {
            let token = index.isMultiple(of: 2) ? "Authorization: Bearer \(bogus)\r\n" : ""
            try client.send(
                "POST /v1/entries HTTP/1.1\r\nHost: tokens\r\n\(token)Content-Type: application/json\r\nContent-Length: \(size)\r\n\r\n")
        }
        var left = Array(repeating: size, count: clients.count)
        let deadline = Date().addingTimeInterval(60)
        while left.contains(where: { $0 > 0 }), Date() < deadline {
            var progressed = false
            for index in clients.indices where left[index] > 0 {
                switch clients[index].sendFiller(left[index]) {
                case .bytes(let count):
                    left[index] -= count
                    progressed = true
                case .failed: left[index] = 0
                case .wouldBlock: break
                }
            }
            if !progressed { usleep(10_000) }
        }
        let answers = clients.map { String(($0.responseHead(within: 30) ?? "no answer").prefix(12)) }
        #expect(answers == Array(repeating: "HTTP/1.1 401", count: 60))
        // Account creation carries a few hundred bytes: a large body is refused, read no further.
        let creation = try RawConnection(port: port, from: "127.0.0.3")
        try creation.send("POST /v1/accounts HTTP/1.1\r\nHost: tokens\r\nContent-Type: application/json\r\nContent-Length: \(size)\r\n\r\n")
        #expect(creation.responseHead(within: 30)?.hasPrefix("HTTP/1.1 413") == true)
        let peak = try Self.peakMemory(of: server)
        #expect(peak < 150_000_000, "peak resident memory \(peak / 1_000_000) MB")
        #expect(try await server.request("GET", "/v1/health").status == 200)
        #expect(server.stop() == .exited(0))
    }

    @Test("accounts opened: 10 an hour from one address, the 11th refused with 429 and Retry-After; another address goes on")
    func accountCreationLimit() async throws {
        let server = try ServerProcess(["--phase", "dev"])
        let port = try #require(server.baseURL.port)
        func open(from address: String) throws -> String {
            let body = "{\"accountId\":\"\(UUID().uuidString.lowercased())\",\"authKey\":\"\(ServerProcessTests.authKey)\"}"
            let connection = try RawConnection(port: port, from: address)
            try connection.send(
                "POST /v1/accounts HTTP/1.1\r\nHost: tokens\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            return connection.responseHead(within: 30) ?? "no answer"
        }
        let statuses = try (0..<10).map { _ in String(try open(from: "127.0.0.2").prefix(12)) }
        #expect(statuses == Array(repeating: "HTTP/1.1 201", count: 10))
        let refused = try open(from: "127.0.0.2")
        #expect(refused.hasPrefix("HTTP/1.1 429") && refused.contains("Retry-After: 3600"), "\(refused)")
        #expect(try open(from: "127.0.0.3").hasPrefix("HTTP/1.1 201"))
        #expect(server.stop() == .exited(0))
    }
}
