import Domain
import Foundation
import OpenAPIRuntime
import Testing

@testable import SyncRemoteData

/// Opening the account, enrolling, listing and revoking devices over a stub of the generated
/// API: what is sent (the auth key, never the sync key) and every answer as a domain value or a SyncError.
@Suite("Remote sync account")
struct RemoteSyncAccountDataSourceTests {
    typealias StubAPI = RemoteSyncDataSourceTests.StubAPI
    static let keys = RemoteSyncDataSourceTests.keys
    static let problem = RemoteSyncDataSourceTests.problem

    static func account(_ api: StubAPI) -> RemoteSyncAccountDataSource { RemoteSyncAccountDataSource(api: api, keys: keys) }

    @Test("create sends the account id and the auth key; 409 is accountExists, 503 the server's storage unavailable, 500 a server failure")
    func create() async throws {
        let api = StubAPI(create: { .created(.init()) })
        try await Self.account(api).createAccount(invitation: nil)
        let account = Self.keys.account.uuidString.lowercased()
        #expect(api.sent.withLock { $0 } == ["create \(account) \(Data(Self.keys.authKey).base64EncodedString())"])
        await #expect(throws: SyncError.accountExists) {
            try await Self.account(StubAPI(create: { .conflict(Self.problem) })).createAccount(invitation: nil)
        }
        await #expect(throws: SyncError.unavailable) {
            try await Self.account(StubAPI(create: { .default(statusCode: 503, Self.problem) })).createAccount(invitation: nil)
        }
        await #expect(throws: SyncError.server) {
            try await Self.account(StubAPI(create: { .default(statusCode: 500, Self.problem) })).createAccount(invitation: nil)
        }
    }

    @Test("an invitation is sent with the new account; each 403 problem type is its own refusal, an untyped one incompatible")
    func invitation() async throws {
        let api = StubAPI(create: { .created(.init()) })
        let text = Data(repeating: 7, count: 32).base64EncodedString()
        try await Self.account(api).createAccount(invitation: SyncInvitation(text: " \(text)\n"))
        #expect(api.sent.withLock { $0 }.first?.hasSuffix(" invited by \(text)") == true)
        for (type, error) in [
            ("urn:tokens:sync:invitation-required", SyncError.invitationRequired),
            ("urn:tokens:sync:invitation-refused", .invitationRefused), ("urn:tokens:sync:signup-closed", .signupClosed),
            ("urn:tokens:sync:other", .incompatible),
        ] {
            let problem = Components.Responses.Problem(body: .applicationProblemJson(.init(_type: type, title: "Forbidden", status: 403)))
            await #expect(throws: error) {
                try await Self.account(StubAPI(create: { .forbidden(problem) })).createAccount(invitation: nil)
            }
        }
        #expect(SyncInvitation(text: "short") == nil && "\(SyncInvitation(text: text)!)" == "SyncInvitation(redacted)")
    }

    @Test("enrol answers the device and its 32-byte token; a wrong auth key is unauthorized; a short token is refused")
    func enrol() async throws {
        let device = UUID()
        let token = Array(repeating: UInt8(9), count: 32)
        let api = StubAPI(enrol: {
            .created(.init(body: .json(.init(deviceId: device.uuidString, token: Data(token).base64EncodedString()))))
        })
        let enrolment = try await Self.account(api).enrol(deviceName: "laptop", deviceKey: [1, 2, 3])
        #expect(enrolment == SyncEnrolment(deviceID: device, token: token))
        #expect(!"\(enrolment)".contains(Data(token).base64EncodedString()) && "\(enrolment)".contains("redacted"))
        #expect(api.sent.withLock { $0 }.first?.hasSuffix(" laptop") == true)
        await #expect(throws: SyncError.unauthorized) {
            try await Self.account(StubAPI(enrol: { .unauthorized(Self.problem) })).enrol(deviceName: "x", deviceKey: [1])
        }
        let short = StubAPI(enrol: { .created(.init(body: .json(.init(deviceId: device.uuidString, token: "c2hvcnQ=")))) })
        await #expect(throws: SyncError.incompatible) { try await Self.account(short).enrol(deviceName: "x", deviceKey: [1]) }
    }

    @Test("devices come back as domain values; revoking an unknown device is unknownDevice")
    func devices() async throws {
        let (one, two) = (UUID(), UUID())
        let enrolled = Date(timeIntervalSince1970: 1_800_000_000)
        let seen = enrolled.addingTimeInterval(90)
        let api = StubAPI(
            devices: {
                .ok(
                    .init(
                        body: .json(
                            .init(devices: [
                                .init(
                                    id: one.uuidString, name: "laptop", enrolledAt: enrolled, lastSeenAt: seen, isCaller: true),
                                .init(id: two.uuidString, name: "old", enrolledAt: enrolled, revokedAt: enrolled, isCaller: false),
                            ]))))
            }, revoke: { .noContent(.init()) })
        let remote = RemoteSyncDataSource(api: api, keys: Self.keys)
        #expect(
            try await remote.devices() == [
                EnrolledDevice(id: one, name: "laptop", enrolledAt: enrolled, revokedAt: nil, isThisDevice: true, lastSeenAt: seen),
                EnrolledDevice(id: two, name: "old", enrolledAt: enrolled, revokedAt: enrolled, isThisDevice: false),
            ])
        try await remote.revoke(two)
        #expect(api.sent.withLock { $0 } == ["revoke \(two.uuidString.lowercased())"])
        let refusing = RemoteSyncDataSource(
            api: StubAPI(devices: { .unauthorized(Self.problem) }, revoke: { .notFound(Self.problem) }), keys: Self.keys)
        await #expect(throws: SyncError.unknownDevice) { try await refusing.revoke(two) }
        await #expect(throws: SyncError.unauthorized) { try await refusing.devices() }
        let revokedProblem = Components.Responses.Problem(
            body: .applicationProblemJson(.init(_type: "urn:tokens:sync:device-revoked", title: "Unauthorized", status: 401)))
        let revoked = RemoteSyncDataSource(
            api: StubAPI(pull: { .unauthorized(revokedProblem) }, devices: { .unauthorized(revokedProblem) }), keys: Self.keys)
        await #expect(throws: SyncError.revoked) { try await revoked.devices() }
        await #expect(throws: SyncError.revoked) { try await revoked.pull(after: 0) }
    }
}
