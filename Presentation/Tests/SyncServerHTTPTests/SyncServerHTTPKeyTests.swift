import Foundation
import Hummingbird
import HummingbirdTesting
import SyncServer
import Testing

@testable import SyncServerHTTP

/// The sync key's operations over HTTP: opaque bytes as base64, a device's token required
/// before a rotation's body is read, a rotation at a passed version a 409 problem.
extension SyncServerHTTPTests {
    typealias T = SyncServerHTTPTests

    @Test("GET /v1/keys answers the version, the key ring, the caller's wrapped key and the device keys; pulls say the version")
    func keyState() async throws {
        try await withClient { client in
            try await client.execute(uri: "/v1/keys", method: .get, headers: T.bearer) { response in
                #expect(response.status == .ok)
                let state = T.object(response.body)
                #expect(state["keyVersion"] as? Int == 3)
                #expect(state["keyRing"] as? String == "AQID" && state["wrapped"] as? String == "BAU=")
                let keys = (state["deviceKeys"] as? [[String: Any]])?.compactMap { $0["deviceKey"] as? String }
                #expect(Set(keys ?? []) == ["Bg==", "Bw=="])
            }
            try await client.execute(uri: "/v1/keys", method: .get) { response in T.expectProblem(response, .unauthorized) }
        }
    }

    @Test("POST /v1/keys rotates with the device's token; a passed version is 409; without a token 401 before the body")
    func rotation() async throws {
        let wrappedFor = StubSyncServer.otherDevice.description
        @Sendable func body(version: Int) -> ByteBuffer {
            T.json([
                "keyVersion": version, "authKey": T.base64(StubSyncServer.authKey), "keyRing": "AQID", "revoke": [wrappedFor],
                "wrapped": [["deviceId": StubSyncServer.device.description, "key": "BAU="]],
            ])
        }
        try await withClient { client in
            try await client.execute(uri: "/v1/keys", method: .post, headers: T.bearer.merging(json: true), body: body(version: 2)) {
                response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/v1/keys", method: .post, headers: T.bearer.merging(json: true), body: body(version: 5)) {
                response in
                T.expectProblem(response, .conflict)
                #expect(T.object(response.body)["detail"] as? String == "the sync key is at version 2: a rotation makes version 3")
            }
            let big = ByteBuffer(repeating: UInt8(ascii: " "), count: 20 * 1024)
            try await client.execute(uri: "/v1/keys", method: .post, headers: [.contentType: "application/json"], body: big) { response in
                T.expectProblem(response, .unauthorized)
            }
        }
        #expect(server.calls.withLock { $0 } == ["rotate to 2 revoking [\"\(wrappedFor)\"] ring 3 wrapped \(StubSyncServer.device)=2"])
    }

    @Test("PUT /v1/keys/device registers the caller's key; enrolment takes one too; a key that is not base64 is 400")
    func deviceKeys() async throws {
        try await withClient { client in
            try await client.execute(
                uri: "/v1/keys/device", method: .put, headers: T.bearer.merging(json: true), body: T.json(["deviceKey": "AQIDBA=="])
            ) { response in #expect(response.status == .noContent) }
            try await client.execute(
                uri: "/v1/keys/device", method: .put, headers: T.bearer.merging(json: true), body: T.json(["deviceKey": "not base64!"])
            ) { response in T.expectProblem(response, .badRequest) }
            let enrolment = T.json(["authKey": T.base64(StubSyncServer.authKey), "name": "laptop", "deviceKey": "AQID"])
            try await client.execute(
                uri: "/v1/accounts/\(StubSyncServer.account)/devices", method: .post, headers: [.contentType: "application/json"],
                body: enrolment
            ) { response in #expect(response.status == .created) }
        }
        let calls = server.calls.withLock { $0 }
        #expect(calls.first == "device key 4 bytes")
        #expect(calls.last?.hasSuffix("with a 3-byte device key") == true)
    }
}

extension SyncServerHTTPTests {
    @Test("a push past the account's quota is 413 with its own problem type, saying the quota")
    func quotaExceeded() async throws {
        try await withClient { client in
            try await client.execute(
                uri: "/v1/entries", method: .post, headers: T.bearer.merging(json: true), body: T.json(["changes": [T.change(0xEE)]])
            ) { response in
                T.expectProblem(response, .contentTooLarge)
                let problem = T.object(response.body)
                #expect(problem["type"] as? String == "urn:tokens:sync:quota-exceeded")
                #expect((problem["detail"] as? String)?.contains("10000 entries and 64 MiB") == true)
            }
        }
    }
}

extension HTTPFields {
    /// These fields with a JSON content type.
    func merging(json: Bool) -> HTTPFields {
        var fields = self
        if json { fields[.contentType] = "application/json" }
        return fields
    }
}
