import AsyncHTTPClient
import Domain
import DomainTestSupport
import Foundation
import HTTPTypes
import NIOCore
import NIOSSL
import OpenAPIRuntime
import Synchronization
import Testing

@testable import SyncRemoteData

/// The remote data source over a stub of the generated API: DTOs mapped to domain types, records
/// encrypted on the way out and decrypted on the way in, every answer and failure a SyncError.
@Suite("Remote sync data source")
struct RemoteSyncDataSourceTests {
    struct Unimplemented: Error {}
    struct TransportFailure: Error, CustomStringConvertible { let description: String }

    /// The generated API with scripted answers; it records what was pushed and what each
    /// account call sent.
    final class StubAPI: APIProtocol {
        let pullAnswer: @Sendable () throws -> Operations.PullEntries.Output
        let pushAnswer: @Sendable ([Components.Schemas.Change]) throws -> Operations.PushEntries.Output
        let createAnswer: @Sendable () throws -> Operations.CreateAccount.Output
        let enrolAnswer: @Sendable () throws -> Operations.EnrolDevice.Output
        let devicesAnswer: @Sendable () throws -> Operations.ListDevices.Output
        let revokeAnswer: @Sendable () throws -> Operations.RevokeDevice.Output
        let historyAnswer: @Sendable (Int64) throws -> Operations.PullHistory.Output
        let healthAnswer: @Sendable () throws -> Operations.GetHealth.Output
        let pushed = Mutex<[Components.Schemas.Change]>([])
        let sent = Mutex<[String]>([])

        init(
            pull: @escaping @Sendable () throws -> Operations.PullEntries.Output = { throw Unimplemented() },
            push: @escaping @Sendable ([Components.Schemas.Change]) throws -> Operations.PushEntries.Output = { _ in throw Unimplemented()
            },
            create: @escaping @Sendable () throws -> Operations.CreateAccount.Output = { throw Unimplemented() },
            enrol: @escaping @Sendable () throws -> Operations.EnrolDevice.Output = { throw Unimplemented() },
            devices: @escaping @Sendable () throws -> Operations.ListDevices.Output = { throw Unimplemented() },
            revoke: @escaping @Sendable () throws -> Operations.RevokeDevice.Output = { throw Unimplemented() },
            history: @escaping @Sendable (Int64) throws -> Operations.PullHistory.Output = { _ in throw Unimplemented() },
            health: @escaping @Sendable () throws -> Operations.GetHealth.Output = { throw Unimplemented() }
        ) {
            historyAnswer = history
            healthAnswer = health
            pullAnswer = pull
            pushAnswer = push
            createAnswer = create
            enrolAnswer = enrol
            devicesAnswer = devices
            revokeAnswer = revoke
        }

        func pullEntries(_ input: Operations.PullEntries.Input) async throws -> Operations.PullEntries.Output { try pullAnswer() }
        func pushEntries(_ input: Operations.PushEntries.Input) async throws -> Operations.PushEntries.Output {
            guard case .json(let body) = input.body else { throw Unimplemented() }
            pushed.withLock { $0 += body.changes }
            return try pushAnswer(body.changes)
        }
        func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output { try healthAnswer() }
        func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
            throw Unimplemented()
        }
        func getDocument(_ input: Operations.GetDocument.Input) async throws -> Operations.GetDocument.Output { throw Unimplemented() }
        func createAccount(_ input: Operations.CreateAccount.Input) async throws -> Operations.CreateAccount.Output {
            guard case .json(let body) = input.body else { throw Unimplemented() }
            sent.withLock { $0.append("create \(body.accountId) \(body.authKey)" + (body.invitation.map { " invited by \($0)" } ?? "")) }
            return try createAnswer()
        }
        func enrolDevice(_ input: Operations.EnrolDevice.Input) async throws -> Operations.EnrolDevice.Output {
            guard case .json(let body) = input.body else { throw Unimplemented() }
            sent.withLock { $0.append("enrol \(input.path.accountId) \(body.authKey) \(body.name)") }
            return try enrolAnswer()
        }
        func listDevices(_ input: Operations.ListDevices.Input) async throws -> Operations.ListDevices.Output { try devicesAnswer() }
        func revokeDevice(_ input: Operations.RevokeDevice.Input) async throws -> Operations.RevokeDevice.Output {
            sent.withLock { $0.append("revoke \(input.path.deviceId)") }
            return try revokeAnswer()
        }
        func pullHistory(_ input: Operations.PullHistory.Input) async throws -> Operations.PullHistory.Output {
            try historyAnswer(input.query.after ?? 0)
        }
        func getKeys(_ input: Operations.GetKeys.Input) async throws -> Operations.GetKeys.Output { throw Unimplemented() }
        func rotateKey(_ input: Operations.RotateKey.Input) async throws -> Operations.RotateKey.Output { throw Unimplemented() }
        func registerDeviceKey(_ input: Operations.RegisterDeviceKey.Input) async throws -> Operations.RegisterDeviceKey.Output {
            throw Unimplemented()
        }
    }

    static let keys = SyncKeys(key: SyncKey(bytes: Array(repeating: 0x42, count: 32))!, account: UUID())
    static let problem = Components.Responses.Problem(body: .applicationProblemJson(.init(title: "no", status: 400)))

    static func record(_ n: UInt8) -> SyncRecord {
        let at = HybridTimestamp(milliseconds: 1_000, device: UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!)
        let key = KeyMaterial(secret: Secret(bytes: [n, n, n]), kind: .hotp, algorithm: .sha1, digits: 6)
        return SyncRecord(
            id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n)), key: Stamped(key, changedAt: at), counter: 4,
            issuer: Stamped("Issuer \(n)", changedAt: at), name: Stamped("me", changedAt: at), note: Stamped("", changedAt: at),
            isFavorite: Stamped(false, changedAt: at), groups: Stamped([], changedAt: at),
            position: Stamped(FractionalPosition("U")!, changedAt: at), isDeleted: Stamped(false, changedAt: at))
    }

    /// `record` as the server would hold it at `sequence` (sealed for entry `id`).
    static func entry(_ record: SyncRecord, sequence: Int64, version: UInt64 = 1, as id: UUID? = nil) throws -> Components.Schemas.Entry {
        let box = try SyncEntryCipher.seal(record, version: version, keys: keys)
        return Components.Schemas.Entry(
            id: (id ?? record.id).uuidString, sequence: sequence, deleted: false, keyVersion: 1,
            nonce: Data(box.nonce).base64EncodedString(), ciphertext: Data(box.ciphertext).base64EncodedString(),
            changedAt: Date(timeIntervalSince1970: 0))
    }

    static func page(_ entries: [Components.Schemas.Entry], generation: String? = nil) -> Operations.PullEntries.Output {
        .ok(
            .init(
                headers: .init(tokensGeneration: generation),
                body: .json(
                    .init(entries: entries, head: entries.last?.sequence ?? 0, serverTime: Date(timeIntervalSince1970: 0), hasMore: true))))
    }

    @Test("a pulled page is decrypted into domain entries, with the head, whether more follow and the server's generation")
    func pull() async throws {
        let entry = try Self.entry(Self.record(1), sequence: 7)
        let remote = RemoteSyncDataSource(api: StubAPI(pull: { Self.page([entry], generation: "g7") }), keys: Self.keys)
        let page = try await remote.pull(after: 0)
        #expect(page.entries == [RemoteEntry(sequence: 7, record: Self.record(1))] && page.head == 7 && page.hasMore)
        #expect(page.generation == "g7")
    }

    @Test("each page carries the server's time with when its request left and came back, on the clock given; none without one")
    func pageTellsServerTime() async throws {
        let clock = FixedClock(unix: 1_000)
        let api = StubAPI(pull: {
            clock.advance(by: 0.25)
            return Self.page([])
        })
        let page = try await RemoteSyncDataSource(api: api, keys: Self.keys, clock: clock).pull(after: 0)
        #expect(
            page.serverTime
                == ServerTimeSample(
                    sent: Date(timeIntervalSince1970: 1_000), received: Date(timeIntervalSince1970: 1_000.25),
                    serverDate: Date(timeIntervalSince1970: 0)))
        #expect(try await RemoteSyncDataSource(api: api, keys: Self.keys).pull(after: 0).serverTime == nil)
    }

    @Test("the liveness answer: the server's time with when the request left and came back, and its version; a 503 is unavailable")
    func health() async throws {
        let clock = FixedClock(unix: 1_000)
        let answering = StubAPI(health: {
            clock.advance(by: 0.5)
            return .ok(.init(body: .json(.init(status: .ok, serverTime: Date(timeIntervalSince1970: 1_300), version: "0.1.0"))))
        })
        let report = try await RemoteSyncHealthDataSource(api: answering, clock: clock).check()
        #expect(
            report
                == SyncServerHealthReport(
                    time: ServerTimeSample(
                        sent: Date(timeIntervalSince1970: 1_000), received: Date(timeIntervalSince1970: 1_000.5),
                        serverDate: Date(timeIntervalSince1970: 1_300)), version: "0.1.0"))
        let down = StubAPI(health: { .default(statusCode: 503, .init(body: .applicationProblemJson(.init(title: "down", status: 503)))) })
        await #expect(throws: SyncError.unavailable) { try await RemoteSyncHealthDataSource(api: down, clock: clock).check() }
    }

    @Test("a page from an account whose key is newer stops the pull (keyChanged); an entry of an earlier key version still opens")
    func keyVersions() async throws {
        let newer = RemoteSyncDataSource(
            api: StubAPI(pull: {
                .ok(
                    .init(headers: .init(tokensKeyVersion: 2), body: .json(.init(entries: [], head: 0, serverTime: Date(), hasMore: false)))
                )
            }), keys: Self.keys)
        await #expect(throws: SyncError.keyChanged) { try await newer.pull(after: 0) }
        let old = try Self.entry(Self.record(1), sequence: 7)
        let current = SyncKeys(key: SyncKey(bytes: Array(repeating: 0x43, count: 32))!, account: Self.keys.account, version: 2)
        let rotated = RemoteSyncDataSource(
            api: StubAPI(pull: {
                .ok(
                    .init(
                        headers: .init(tokensKeyVersion: 2), body: .json(.init(entries: [old], head: 7, serverTime: Date(), hasMore: false))
                    ))
            }), keys: current, earlier: [Self.keys])
        #expect(try await rotated.pull(after: 0).entries == [RemoteEntry(sequence: 7, record: Self.record(1))])
        let withoutEarlier = RemoteSyncDataSource(api: StubAPI(pull: { Self.page([old]) }), keys: current)
        #expect(try await withoutEarlier.pull(after: 0).unreadable.map(\.sequence) == [7])
    }

    @Test("an entry that does not open (sealed for another id, or garbage) is listed apart; the rest of the page is read")
    func moved() async throws {
        let other = UUID()
        let moved = try Self.entry(Self.record(1), sequence: 7, as: other)
        var forged = try Self.entry(Self.record(2), sequence: 8)
        forged.ciphertext = Data(repeating: 0x41, count: 64).base64EncodedString()
        let garbage = forged
        let good = try Self.entry(Self.record(3), sequence: 9)
        let remote = RemoteSyncDataSource(api: StubAPI(pull: { Self.page([moved, garbage, good]) }), keys: Self.keys)
        let page = try await remote.pull(after: 0)
        #expect(page.entries == [RemoteEntry(sequence: 9, record: Self.record(3))])
        #expect(page.unreadable == [UnreadableEntry(id: other, sequence: 7), UnreadableEntry(id: Self.record(2).id, sequence: 8)])
    }

    @Test(
        "every answer but a page, and every failure to get one, is a SyncError (a 429 waits as long as its Retry-After says; a 503 is the server's storage, not the server, failing)",
        arguments: [
            (Operations.PullEntries.Output.unauthorized(problem), SyncError.unauthorized),
            (.gone(problem), .cursorExpired), (.tooManyRequests(problem), .rateLimited(retryAfterSeconds: 60)),
            (.tooManyRequests(.init(headers: .init(retryAfter: 3600), body: problem.body)), .rateLimited(retryAfterSeconds: 3600)),
            (.badRequest(problem), .incompatible), (.default(statusCode: 503, problem), .unavailable),
            (.default(statusCode: 500, problem), .server), (.default(statusCode: 418, problem), .incompatible),
        ])
    func answers(output: Operations.PullEntries.Output, error: SyncError) async {
        let remote = RemoteSyncDataSource(api: StubAPI(pull: { output }), keys: Self.keys)
        await #expect(throws: error) { try await remote.pull(after: 0) }
    }

    @Test("a request with no answer: offline, timed out or an untrusted certificate, by the transport's error types")
    func transport() async {
        let failures: [(any Error, SyncError)] = [
            (IOError(errnoCode: ECONNREFUSED, reason: "connect"), .offline), (HTTPClientError.remoteConnectionClosed, .offline),
            (ChannelError.ioOnClosedChannel, .offline), (HTTPClientError.readTimeout, .timedOut),
            (HTTPClientError.connectTimeout, .timedOut), (HTTPClientError.deadlineExceeded, .timedOut),
            (NIOSSLError.handshakeFailed(.sslError([])), .insecureConnection),
            // Wrapped by the generated client, as it throws them.
            (
                ClientError(
                    operationID: "pullEntries", operationInput: "", causeDescription: "", underlyingError: HTTPClientError.readTimeout),
                .timedOut
            ),
            // A failure of no known type: taken as no connection (the changes wait).
            (TransportFailure(description: "certificate timed out"), .offline),
        ]
        for (failure, error) in failures {
            let remote = RemoteSyncDataSource(api: StubAPI(pull: { throw failure }), keys: Self.keys)
            await #expect(throws: error, "\(failure)") { try await remote.pull(after: 0) }
        }
    }

    @Test("a 413 with the quota's problem type is quotaExceeded; any other 413 is a server this client does not speak")
    func quotaExceeded() async throws {
        let quota = Components.Responses.Problem(
            body: .applicationProblemJson(.init(_type: "urn:tokens:sync:quota-exceeded", title: "Content too large", status: 413)))
        let full = RemoteSyncDataSource(api: StubAPI(push: { _ in .contentTooLarge(quota) }), keys: Self.keys)
        await #expect(throws: SyncError.quotaExceeded) { try await full.push([RemoteChange(record: Self.record(1), basedOn: 0)]) }
        let other = RemoteSyncDataSource(api: StubAPI(push: { _ in .contentTooLarge(Self.problem) }), keys: Self.keys)
        await #expect(throws: SyncError.incompatible) { try await other.push([RemoteChange(record: Self.record(1), basedOn: 0)]) }
    }

    @Test("a push leaves encrypted, based where it was; applied and conflicting answers come back as domain results")
    func push() async throws {
        let current = try Self.entry(Self.record(9), sequence: 12)
        let api = StubAPI(push: { changes in
            .ok(
                .init(
                    body: .json(
                        .init(results: [
                            .init(id: changes[0].id, status: .applied, sequence: 11),
                            .init(id: changes[1].id, status: .conflict, current: current),
                        ]))))
        })
        let remote = RemoteSyncDataSource(api: api, keys: Self.keys)
        var edited = Self.record(9)
        edited.note = Stamped("mine", changedAt: edited.note.changedAt)
        let results = try await remote.push([RemoteChange(record: Self.record(1), basedOn: 0), RemoteChange(record: edited, basedOn: 3)])
        #expect(results == [.applied(sequence: 11), .conflict(current: RemoteEntry(sequence: 12, record: Self.record(9)))])
        let sent = api.pushed.withLock { $0 }
        #expect(sent.map(\.basedOn) == [0, 3] && !sent[0].ciphertext.contains("Issuer"))
        let opened = try SyncEntryCipher.open(
            entry: Self.record(1).id, keyVersion: 1, nonce: Array(Data(base64Encoded: sent[0].nonce)!),
            ciphertext: Array(Data(base64Encoded: sent[0].ciphertext)!), keys: Self.keys)
        #expect(opened.record == Self.record(1) && opened.version == 1)
    }

    @Test("a retry the server already holds (its own nonce, so other bytes) comes back as a conflict with the same record: applied")
    func retryAfterLostAnswer() async throws {
        let stored = try Self.entry(Self.record(4), sequence: 7)
        let api = StubAPI(push: { changes in
            .ok(.init(body: .json(.init(results: [.init(id: changes[0].id, status: .conflict, current: stored)]))))
        })
        let results = try await RemoteSyncDataSource(api: api, keys: Self.keys).push([RemoteChange(record: Self.record(4), basedOn: 0)])
        #expect(results == [.applied(sequence: 7)])
        // The same record under another version is someone else's write: a conflict.
        let other = try await RemoteSyncDataSource(api: api, keys: Self.keys).push([
            RemoteChange(record: Self.record(4), basedOn: 0, version: 2)
        ])
        #expect(other == [.conflict(current: RemoteEntry(sequence: 7, record: Self.record(4), version: 1))])
    }

    @Test("every request carries the device's bearer token")
    func bearer() async throws {
        let middleware = BearerToken(token: Array(repeating: 7, count: 32))
        let seen = Mutex<String?>(nil)
        _ = try await middleware.intercept(
            HTTPRequest(method: .get, scheme: "https", authority: "sync.example", path: "/v1/entries"), body: nil,
            baseURL: URL(string: "https://sync.example/v1")!, operationID: "pullEntries"
        ) { request, _, _ in
            seen.withLock { $0 = request.headerFields[.authorization] }
            return (HTTPResponse(status: .ok), nil)
        }
        #expect(seen.withLock { $0 } == "Bearer " + Data(repeating: 7, count: 32).base64EncodedString())
    }
}
