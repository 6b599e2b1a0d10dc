import Foundation
import SyncServer
import SyncServerTestSupport
import Synchronization

@testable import SyncServerHTTP

/// Use cases with fixed answers, recording what they were asked: the HTTP layer's tests check
/// its mapping of requests and errors, not the rules (those have their own tests, over the
/// real stores).
final class StubSyncServer: Sendable {
    static let account = SyncAccountID(ServerSamples.uuid(1, high: 0xA0))
    static let takenAccount = SyncAccountID(ServerSamples.uuid(2, high: 0xA0))
    /// An account the stub opens only with an invitation.
    static let uninvitedAccount = SyncAccountID(ServerSamples.uuid(3, high: 0xA0))
    static let authKey = ServerSamples.secret(0x42)
    static let token = ServerSamples.secret(0x77)
    static let revokedToken = ServerSamples.secret(0x78)
    static let device = DeviceID(ServerSamples.uuid(1, high: 0xD0))
    static let otherDevice = DeviceID(ServerSamples.uuid(2, high: 0xD0))
    static let caller = AuthenticatedDevice(account: account, device: device)
    static let horizon: Int64 = 100
    let clock = SettableServerClock(unix: 1_800_000_000)
    /// What the use cases were asked, in order (never the secrets themselves).
    let calls = Mutex<[String]>([])

    func record(_ call: String) { calls.withLock { $0.append(call) } }

    var useCases: SyncServerUseCases {
        SyncServerUseCases(
            createAccount: CreateStub(server: self), enrolDevice: EnrolStub(server: self),
            authenticate: AuthenticateStub(), listDevices: ListStub(server: self), revokeDevice: RevokeStub(server: self),
            push: PushStub(server: self), pull: PullStub(server: self), history: HistoryStub(server: self),
            keys: SyncKeyUseCases(state: KeyStateStub(), rotate: RotateStub(server: self), registerDeviceKey: DeviceKeyStub(server: self)),
            readiness: ReadinessStub(server: self), clock: clock)
    }

    /// What the readiness check answers next: nil, ready.
    let notReady = Mutex<SyncServerError?>(nil)

    struct ReadinessStub: CheckReadinessUseCase {
        let server: StubSyncServer
        func execute() async throws {
            if let error = server.notReady.withLock({ $0 }) { throw error }
        }
    }

    struct CreateStub: CreateSyncAccountUseCase {
        let server: StubSyncServer
        func execute(account: SyncAccountID, authKey: SyncSecret, address: String, invitation: SyncSecret?) async throws {
            guard account != StubSyncServer.takenAccount else { throw SyncServerError.accountExists }
            if account == StubSyncServer.uninvitedAccount { throw SyncServerError.invitationRequired }
            server.record("create \(account)" + (invitation == nil ? "" : " invited"))
        }
    }

    struct EnrolStub: EnrolDeviceUseCase {
        let server: StubSyncServer
        func execute(account: SyncAccountID, authKey: SyncSecret, name: String, deviceKey: [UInt8]?, address: String) async throws
            -> Enrolment
        {
            server.record("enrol \(account) \(name) from \(address)" + (deviceKey.map { " with a \($0.count)-byte device key" } ?? ""))
            if name == "one too many" { throw SyncServerError.rateLimited(retryAfterSeconds: 120) }
            if name == "database down" { throw SyncServerError.unavailable(.unreachable) }
            if name == "database full" { throw SyncServerError.unavailable(.full) }
            guard account == StubSyncServer.account, authKey == StubSyncServer.authKey else { throw SyncServerError.unauthorized }
            return Enrolment(device: StubSyncServer.device, token: StubSyncServer.token)
        }
    }

    struct AuthenticateStub: AuthenticateDeviceUseCase {
        func execute(token: SyncSecret) async throws -> AuthenticatedDevice {
            if token == StubSyncServer.revokedToken { throw SyncServerError.deviceRevoked }
            guard token == StubSyncServer.token else { throw SyncServerError.unauthorized }
            return StubSyncServer.caller
        }
    }

    struct ListStub: ListDevicesUseCase {
        let server: StubSyncServer
        func execute(for caller: AuthenticatedDevice) async throws -> [SyncDevice] {
            let enrolled = server.clock.now()
            return [
                SyncDevice(
                    id: StubSyncServer.device, account: caller.account, name: "laptop", tokenDigest: SecretDigest(bytes: [1]),
                    enrolledAt: enrolled, lastSeenAt: enrolled.addingTimeInterval(60)),
                SyncDevice(
                    id: StubSyncServer.otherDevice, account: caller.account, name: "old \u{1B}[31mdesk",
                    tokenDigest: SecretDigest(bytes: [2]),
                    enrolledAt: enrolled, revokedAt: enrolled),
            ]
        }
    }

    struct RevokeStub: RevokeDeviceUseCase {
        let server: StubSyncServer
        func execute(_ device: DeviceID, for caller: AuthenticatedDevice) async throws {
            guard device == StubSyncServer.otherDevice else { throw SyncServerError.deviceNotFound }
            server.record("revoke \(device)")
        }
    }

    /// Applies every change (sequence = position), except entries whose id ends in 0xCC (a
    /// conflict); one whose id ends in 0xEE takes the account past its quota.
    struct PushStub: PushChangesUseCase {
        let server: StubSyncServer
        func execute(_ changes: [EntryChange], for caller: AuthenticatedDevice) async throws -> [PushResult] {
            try ChangeValidation.check(changes, limits: SyncLimits())
            server.record("push \(changes.count)")
            if changes.contains(where: { $0.id.uuid.uuid.15 == 0xEE }) { throw SyncServerError.quotaExceeded(SyncLimits().quota) }
            return changes.enumerated().map { index, change in
                guard change.id.uuid.uuid.15 == 0xCC else { return .applied(sequence: Int64(index + 1)) }
                return .conflict(
                    current: SyncEntry(id: change.id, sequence: 9, payload: ServerSamples.payload("theirs"), changedAt: server.clock.now()))
            }
        }

        /// Authenticates as `AuthenticateStub` does, then pushes.
        func execute(_ changes: [EntryChange], token: SyncSecret) async throws -> [PushResult] {
            try ChangeValidation.check(changes, limits: SyncLimits())
            let caller = try await AuthenticateStub().execute(token: token)
            return try await execute(changes, for: caller)
        }
    }

    struct PullStub: PullChangesUseCase {
        let server: StubSyncServer
        func execute(after cursor: Int64, limit: Int?, waiting: Int, for caller: AuthenticatedDevice) async throws -> PullPage {
            guard cursor == 0 || cursor >= StubSyncServer.horizon else {
                throw SyncServerError.cursorExpired(horizon: StubSyncServer.horizon)
            }
            server.record("pull after \(cursor) limit \(limit.map(String.init) ?? "default")\(waiting > 0 ? " wait \(waiting)" : "")")
            let entry = SyncEntry(
                id: EntryID(ServerSamples.uuid(5)), sequence: cursor + 1, payload: ServerSamples.payload("ct"),
                changedAt: server.clock.now())
            return PullPage(entries: [entry], head: cursor + 1, serverTime: server.clock.now(), hasMore: false, generation: "g1")
        }

        /// Authenticates as `AuthenticateStub` does, then pulls.
        func execute(after cursor: Int64, limit: Int?, waiting: Int, token: SyncSecret) async throws -> PullPage {
            let caller = try await AuthenticateStub().execute(token: token)
            return try await execute(after: cursor, limit: limit, waiting: waiting, for: caller)
        }
    }
}
