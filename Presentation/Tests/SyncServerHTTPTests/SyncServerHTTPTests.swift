import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SyncServer
import SyncServerTestSupport
import Testing

@testable import SyncServerHTTP

/// The HTTP interface in process (Hummingbird's test client): each operation's status and body,
/// and every error as a problem document, never a 500.
@Suite("Sync server HTTP interface")
struct SyncServerHTTPTests {
    let server = StubSyncServer()

    func withClient(
        maxBodyBytes: Int = SyncServerRouter.maxBodyBytes, budget: BodyBudget = BodyBudget(),
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var logger = Logger(label: "tokens.test.http")
        logger.logLevel = .critical
        let router = try SyncServerRouter.make(
            useCases: server.useCases, version: "9.9.9", logger: logger, maxBodyBytes: maxBodyBytes, bodyBudget: budget)
        try await Application(router: router, logger: logger).test(.router) { client in try await body(client) }
    }

    static let bearer: HTTPFields = [.authorization: "Bearer " + Data(StubSyncServer.token.bytes).base64EncodedString()]
    static func base64(_ secret: SyncSecret) -> String { Data(secret.bytes).base64EncodedString() }

    static func json(_ object: Any) -> ByteBuffer {
        ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object))
    }

    static func object(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    }

    /// A problem answer: the status, the media type, and the document's own status field.
    static func expectProblem(_ response: TestResponse, _ status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
        let document = object(response.body)
        #expect(document["status"] as? Int == Int(status.code), "\(document)", sourceLocation: sourceLocation)
        #expect(document["title"] is String, sourceLocation: sourceLocation)
    }

    @Test("health answers the server's time and release; the document served is the committed API document")
    func healthAndDocument() async throws {
        let expectedTime = server.clock.now()
        try await withClient { client in
            try await client.execute(uri: "/v1/health", method: .get) { response in
                #expect(response.status == .ok)
                let health = Self.object(response.body)
                #expect(health["status"] as? String == "ok")
                #expect((health["serverTime"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) } == expectedTime)
                #expect(health["version"] as? String == "9.9.9")
            }
            try await client.execute(uri: "/v1/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == apiDocument)
            }
        }
    }

    @Test("ready while the store can serve; while it cannot, 503 with Retry-After, and health still answers")
    func readiness() async throws {
        try await withClient { client in
            try await client.execute(uri: "/v1/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Self.object(response.body)["status"] as? String == "ok")
            }
            for (outage, retryAfter) in [(StoreOutage.unreachable, "5"), (.readOnly, "60")] {
                server.notReady.withLock { $0 = .unavailable(outage) }
                try await client.execute(uri: "/v1/ready", method: .get) { response in
                    Self.expectProblem(response, .serviceUnavailable)
                    #expect(response.headers[.retryAfter] == retryAfter)
                }
                try await client.execute(uri: "/v1/health", method: .get) { #expect($0.status == .ok) }
            }
        }
    }

    @Test("the embedded document is the committed one: the generated code was made from it (make openapi)")
    func generatedFromTheDocument() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Domain/OpenAPI/sync-api.yaml")
        let document = try String(contentsOf: file, encoding: .utf8)
        #expect(apiDocument + "\n" == document || apiDocument == document, "Domain/OpenAPI/sync-api.yaml changed: run make openapi")
    }

    @Test("create an account: 201; an existing id 409; malformed JSON, unknown fields, a short key or a bad id 400")
    func createAccount() async throws {
        try await withClient { client in
            let good: [String: Any] = ["accountId": StubSyncServer.account.description, "authKey": Self.base64(StubSyncServer.authKey)]
            try await client.execute(uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: Self.json(good))
            {
                #expect($0.status == .created)
            }
            var taken = good
            taken["accountId"] = StubSyncServer.takenAccount.description
            try await client.execute(
                uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: Self.json(taken)
            ) {
                Self.expectProblem($0, .conflict)
            }
            var unknown = good
            unknown["admin"] = true
            var short = good
            short["authKey"] = Data([1, 2, 3]).base64EncodedString()
            var badID = good
            badID["accountId"] = "not-a-uuid"
            var wrongType = good
            wrongType["authKey"] = 42
            for body in [
                Self.json(unknown), Self.json(short), Self.json(badID), Self.json(wrongType), ByteBuffer(string: "{\"accountId\":"),
            ] {
                try await client.execute(uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: body) {
                    Self.expectProblem($0, .badRequest)
                }
            }
        }
        #expect(server.calls.withLock { $0 } == ["create \(StubSyncServer.account)"])
    }

    @Test("an invitation goes to the rules with the account; a refusal for want of one is a 403 with its problem type")
    func createWithInvitation() async throws {
        try await withClient { client in
            var invited: [String: Any] = [
                "accountId": StubSyncServer.account.description, "authKey": Self.base64(StubSyncServer.authKey),
                "invitation": Self.base64(StubSyncServer.authKey),
            ]
            try await client.execute(
                uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: Self.json(invited)
            ) {
                #expect($0.status == .created)
            }
            invited["accountId"] = StubSyncServer.uninvitedAccount.description
            invited["invitation"] = nil
            try await client.execute(
                uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: Self.json(invited)
            ) {
                Self.expectProblem($0, .forbidden)
                #expect(Self.object($0.body)["type"] as? String == "urn:tokens:sync:invitation-required")
            }
            invited["invitation"] = "short"
            try await client.execute(
                uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: Self.json(invited)
            ) {
                Self.expectProblem($0, .badRequest)
            }
        }
        #expect(server.calls.withLock { $0 } == ["create \(StubSyncServer.account) invited"])
    }

    @Test("enrol: 201 with a token; a wrong key 401, and the problem never repeats the key")
    func enrol() async throws {
        try await withClient { client in
            let uri = "/v1/accounts/\(StubSyncServer.account)/devices"
            let good: [String: Any] = ["authKey": Self.base64(StubSyncServer.authKey), "name": "laptop"]
            try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: Self.json(good)) {
                response in
                #expect(response.status == .created)
                let enrolment = Self.object(response.body)
                #expect(enrolment["token"] as? String == Self.base64(StubSyncServer.token))
                #expect(enrolment["deviceId"] as? String == StubSyncServer.device.description)
            }
            let wrongKey = ServerSamples.secret(0x01)
            let wrong: [String: Any] = ["authKey": Self.base64(wrongKey), "name": "laptop"]
            try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: Self.json(wrong)) {
                response in
                Self.expectProblem(response, .unauthorized)
                #expect(!String(buffer: response.body).contains(Self.base64(wrongKey)))
            }
        }
    }

    @Test("enrolment beyond its limit: 429 with Retry-After, a problem document")
    func enrolRateLimited() async throws {
        try await withClient { client in
            let uri = "/v1/accounts/\(StubSyncServer.account)/devices"
            let body: [String: Any] = ["authKey": Self.base64(StubSyncServer.authKey), "name": "one too many"]
            try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: Self.json(body)) {
                response in
                Self.expectProblem(response, .tooManyRequests)
                #expect(response.headers[.retryAfter] == "120")
            }
        }
    }

    @Test(
        "a database that cannot serve: 503 with Retry-After (sooner when unreachable than when full), a problem document that says nothing was stored"
    )
    func storeUnavailable() async throws {
        try await withClient { client in
            let uri = "/v1/accounts/\(StubSyncServer.account)/devices"
            for (name, retryAfter) in [("database down", "5"), ("database full", "60")] {
                let body: [String: Any] = ["authKey": Self.base64(StubSyncServer.authKey), "name": name]
                try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: Self.json(body)) {
                    response in
                    Self.expectProblem(response, .serviceUnavailable)
                    #expect(response.headers[.retryAfter] == retryAfter)
                    #expect((Self.object(response.body)["detail"] as? String)?.contains("nothing was stored") == true)
                }
            }
        }
    }

    @Test(
        "devices and pulls: no token, a malformed one or an unknown one is 401; a revoked device's is 401 saying so; with a token, the list marks the caller and says when each was last seen"
    )
    func devices() async throws {
        try await withClient { client in
            let unknown = "Bearer " + Self.base64(ServerSamples.secret(0x79))
            // A pull checks its token in its own read of the store, the rest before the handler: the same answers.
            for uri in ["/v1/devices", "/v1/entries"] {
                for headers: HTTPFields in [
                    [:], [.authorization: "Bearer nonsense"], [.authorization: "Basic abc"], [.authorization: unknown],
                ] {
                    try await client.execute(uri: uri, method: .get, headers: headers) { response in
                        Self.expectProblem(response, .unauthorized)
                        #expect(Self.object(response.body)["type"] == nil)
                    }
                }
            }
            let revoked: HTTPFields = [.authorization: "Bearer " + Self.base64(StubSyncServer.revokedToken)]
            try await client.execute(uri: "/v1/entries", method: .get, headers: revoked) { response in
                Self.expectProblem(response, .unauthorized)
                #expect(Self.object(response.body)["type"] as? String == "urn:tokens:sync:device-revoked")
            }
            try await client.execute(uri: "/v1/devices", method: .get, headers: Self.bearer) { response in
                #expect(response.status == .ok)
                let devices = Self.object(response.body)["devices"] as? [[String: Any]] ?? []
                #expect(devices.map { $0["isCaller"] as? Bool } == [true, false])
                #expect(devices.last?["revokedAt"] is String)
                // When the server last saw each device; absent for one it never saw.
                #expect(devices.map { $0["lastSeenAt"] is String } == [true, false])
            }
            try await client.execute(uri: "/v1/devices/\(StubSyncServer.otherDevice)", method: .delete, headers: Self.bearer) {
                #expect($0.status == .noContent)
            }
            try await client.execute(uri: "/v1/devices/\(ServerSamples.uuid(9))", method: .delete, headers: Self.bearer) {
                Self.expectProblem($0, .notFound)
            }
            try await client.execute(uri: "/v1/devices/nope", method: .delete, headers: Self.bearer) { Self.expectProblem($0, .badRequest) }
        }
    }

    static func change(_ n: UInt8) -> [String: Any] {
        [
            "id": ServerSamples.uuid(n).uuidString, "basedOn": 0, "deleted": false, "keyVersion": 1,
            "nonce": Data(repeating: 1, count: 12).base64EncodedString(), "ciphertext": Data("ct".utf8).base64EncodedString(),
        ]
    }

    @Test("push: results per change; 101 changes or a ciphertext past its size is 400 naming the limit, nothing pushed; bad base64 is 400")
    func push() async throws {
        try await withClient { client in
            let body = Self.json(["changes": [Self.change(1), Self.change(0xCC)]])
            try await client.execute(
                uri: "/v1/entries", method: .post, headers: Self.bearer.merging([.contentType: "application/json"]), body: body
            ) { response in
                #expect(response.status == .ok)
                let results = Self.object(response.body)["results"] as? [[String: Any]] ?? []
                #expect(results.map { $0["status"] as? String } == ["applied", "conflict"])
                #expect(results.first?["sequence"] as? Int == 1)
                #expect((results.last?["current"] as? [String: Any])?["sequence"] as? Int == 9)
            }
            let tooMany = Self.json(["changes": (0...100).map { Self.change(UInt8($0)) }])
            try await client.execute(
                uri: "/v1/entries", method: .post, headers: Self.bearer.merging([.contentType: "application/json"]), body: tooMany
            ) { response in
                Self.expectProblem(response, .badRequest)
                #expect(Self.object(response.body)["detail"] as? String == "at most 100 changes in one push")
            }
            var oversized = Self.change(3)
            oversized["ciphertext"] = Data(count: 16_384).base64EncodedString()
            try await client.execute(
                uri: "/v1/entries", method: .post, headers: Self.bearer.merging([.contentType: "application/json"]),
                body: Self.json(["changes": [oversized]])
            ) { response in
                Self.expectProblem(response, .badRequest)
                #expect(Self.object(response.body)["detail"] as? String == "a ciphertext has at most 16383 bytes")
            }
            var broken = Self.change(2)
            broken["ciphertext"] = "***"
            try await client.execute(
                uri: "/v1/entries", method: .post, headers: Self.bearer.merging([.contentType: "application/json"]),
                body: Self.json(["changes": [broken]])
            ) { Self.expectProblem($0, .badRequest) }
            try await client.execute(uri: "/v1/entries", method: .post, headers: [.contentType: "application/json"], body: body) {
                Self.expectProblem($0, .unauthorized)
            }
        }
        #expect(server.calls.withLock { $0 } == ["push 2"])
    }

    @Test(
        "pull: a page with the store's generation in Tokens-Generation; a cursor below the horizon is 410; a limit out of range reaches the rules"
    )
    func pull() async throws {
        try await withClient { client in
            try await client.execute(uri: "/v1/entries?after=100&limit=2", method: .get, headers: Self.bearer) { response in
                #expect(response.status == .ok)
                #expect(response.headers.first { $0.name.canonicalName == "tokens-generation" }?.value == "g1")
                let page = Self.object(response.body)
                #expect(page["head"] as? Int == 101 && page["hasMore"] as? Bool == false)
            }
            try await client.execute(uri: "/v1/entries?after=5", method: .get, headers: Self.bearer) { Self.expectProblem($0, .gone) }
            try await client.execute(uri: "/v1/entries?after=abc", method: .get, headers: Self.bearer) {
                Self.expectProblem($0, .badRequest)
            }
            try await client.execute(uri: "/v1/entries?after=100&wait=30", method: .get, headers: Self.bearer) { #expect($0.status == .ok) }
        }
        #expect(server.calls.withLock { $0 } == ["pull after 100 limit 2", "pull after 100 limit default wait 30"])
    }

    @Test("an unknown path or a method a path does not take is a problem document too")
    func unknownRoutes() async throws {
        try await withClient { client in
            try await client.execute(uri: "/v1/nothing-here", method: .get) { Self.expectProblem($0, .notFound) }
            try await client.execute(uri: "/", method: .get) { Self.expectProblem($0, .notFound) }
            try await client.execute(uri: "/v1/health", method: .post) { response in
                Self.expectProblem(response, .methodNotAllowed)
                #expect(response.headers[.allow] == "GET")
            }
            try await client.execute(uri: "/v1/entries", method: .put, headers: Self.bearer) { response in
                Self.expectProblem(response, .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, POST")
            }
        }
    }

    @Test("the documented routes are read from the document: every path and method")
    func documentedRoutes() {
        #expect(
            DocumentedRoutes.methods == [
                "/health": ["GET"], "/ready": ["GET"], "/openapi.yaml": ["GET"], "/accounts": ["POST"],
                "/accounts/{accountId}/devices": ["POST"], "/devices": ["GET"], "/devices/{deviceId}": ["DELETE"],
                "/entries": ["GET", "POST"], "/keys": ["GET", "POST"], "/keys/device": ["PUT"], "/history": ["GET"],
            ])
        #expect(DocumentedRoutes.allowed(for: "/accounts/abc/devices") == ["POST"])
        #expect(DocumentedRoutes.allowed(for: "/accounts/abc") == nil)
    }

    @Test("a body over the limit is 413, read no further")
    func bodyLimit() async throws {
        try await withClient(maxBodyBytes: 1024) { client in
            let big = ByteBuffer(bytes: Array(repeating: UInt8(ascii: "x"), count: 4096))
            try await client.execute(uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: big) {
                Self.expectProblem($0, .contentTooLarge)
            }
        }
        #expect(server.calls.withLock { $0 }.isEmpty)
    }

    @Test(
        "a push is authenticated from its headers before its body is read: none or a wrong token is 401; account creation takes 16 KiB at most"
    )
    func bodiesOnlyForDevices() async throws {
        try await withClient { client in
            let big = ByteBuffer(bytes: Array(repeating: UInt8(ascii: "x"), count: 64 * 1024))
            let wrong: HTTPFields = [.authorization: "Bearer " + Data(repeating: 9, count: 32).base64EncodedString()]
            for headers in [HTTPFields(), wrong] {
                try await client.execute(
                    uri: "/v1/entries", method: .post, headers: headers.merging([.contentType: "application/json"]), body: big
                ) {
                    Self.expectProblem($0, .unauthorized)
                }
            }
            try await client.execute(uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: big) {
                Self.expectProblem($0, .contentTooLarge)
            }
        }
        #expect(server.calls.withLock { $0 }.isEmpty, "nothing was pushed or created")
    }

    @Test(
        "bodies in flight are bounded in all: a body past what is left of the budget is 503 with Retry-After, and its bytes are given back after each answer"
    )
    func bodyBudget() async throws {
        let budget = BodyBudget(bytes: 1000)
        try await withClient(budget: budget) { client in
            let body = Self.json(["accountId": UUID().uuidString, "authKey": Self.base64(StubSyncServer.authKey)])
            #expect(budget.reserve(900))
            try await client.execute(uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: body) {
                Self.expectProblem($0, .serviceUnavailable)
                #expect($0.headers[.retryAfter] == "1")
            }
            budget.release(900)
            try await client.execute(uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: body) {
                #expect($0.status != .serviceUnavailable)
            }
        }
        #expect(budget.inFlight == 0)
    }
}

extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        for field in other { merged.append(field) }
        return merged
    }
}

/// The access log's path: what comes from the network reaches a log only as printable ASCII.
@Suite("Access log")
struct AccessLogTests {
    @Test("control characters, spaces, non-ASCII and % are percent-escaped; the rest is kept")
    func printable() {
        #expect(AccessLogMiddleware.printable("/v1/entries?after=1&wait=30") == "/v1/entries?after=1&wait=30")
        #expect(AccessLogMiddleware.printable("/v1/\u{1B}[31mred ü%") == "/v1/%1B[31mred%20%C3%BC%25")
    }
}

/// The client's address behind reverse proxies: only trusted proxies are believed.
@Suite("Client address")
struct ClientAddressTests {
    let proxies = ClientAddress(trustedProxies: ["10.0.0.1", "10.0.0.2"])

    @Test("an untrusted peer is the client, whatever it forwards; no peer is no address")
    func untrusted() {
        #expect(proxies.resolve(peer: "203.0.113.9", forwardedFor: ["198.51.100.1"]) == "203.0.113.9")
        #expect(proxies.resolve(peer: nil, forwardedFor: ["198.51.100.1"]) == nil)
    }

    @Test("from a trusted proxy: the rightmost hop no proxy of ours vouches for, across fields and spaces")
    func trusted() {
        #expect(proxies.resolve(peer: "10.0.0.1", forwardedFor: ["198.51.100.1"]) == "198.51.100.1")
        // The client wrote the first hop itself; the chain of our proxies leads to 192.0.2.7.
        #expect(proxies.resolve(peer: "10.0.0.1", forwardedFor: ["1.2.3.4, 192.0.2.7", " 10.0.0.2 "]) == "192.0.2.7")
        #expect(proxies.resolve(peer: "10.0.0.1", forwardedFor: ["2001:db8::7"]) == "2001:db8::7")
    }

    @Test("from a trusted proxy without the header, or with a malformed hop: the proxy itself")
    func malformed() {
        #expect(proxies.resolve(peer: "10.0.0.1", forwardedFor: []) == "10.0.0.1")
        #expect(proxies.resolve(peer: "10.0.0.1", forwardedFor: ["192.0.2.7, unknown"]) == "10.0.0.1")
        #expect(proxies.resolve(peer: "10.0.0.1", forwardedFor: ["\u{1B}[31m"]) == "10.0.0.1")
        #expect(proxies.resolve(peer: "10.0.0.1", forwardedFor: ["10.0.0.2"]) == "10.0.0.2")
    }
}

extension SyncServerHTTPTests {
    @Test("history: a page of earlier versions (opaque, with when each was replaced); bad queries are 400, no token 401")
    func history() async throws {
        try await withClient { client in
            try await client.execute(uri: "/v1/history?after=7&limit=3", method: .get, headers: Self.bearer) { response in
                #expect(response.status == .ok)
                let page = Self.object(response.body)
                #expect(page["hasMore"] as? Bool == true)
                let entries = try #require(page["entries"] as? [[String: Any]])
                #expect(entries.count == 1 && entries[0]["sequence"] as? Int == 8 && entries[0]["ciphertext"] as? String == "Y3Q=")
                #expect(entries[0]["replacedAt"] as? String == "2027-01-15T08:01:00Z" && entries[0]["deleted"] == nil)
            }
            try await client.execute(uri: "/v1/history?after=-1", method: .get, headers: Self.bearer) {
                Self.expectProblem($0, .badRequest)
            }
            try await client.execute(uri: "/v1/history?limit=501", method: .get, headers: Self.bearer) {
                Self.expectProblem($0, .badRequest)
            }
            try await client.execute(uri: "/v1/history", method: .get) { Self.expectProblem($0, .unauthorized) }
        }
        #expect(server.calls.withLock { $0 } == ["history after 7 limit 3"])
    }
}
