import Domain
import DomainTestSupport
import Foundation
import Synchronization

/// The server a model history runs against: the in-memory one (every step, hostile ones too)
/// or the real `tokens-server` over HTTP (the steps an honest server can be made to take).
public protocol ModelServer: Sendable {
    /// The sync code the history's machines share.
    var code: SyncCode { get }
    /// A new device for machine `machine` (`sync join`): its credentials.
    func enrol(machine: Int) async throws -> SyncEnrolment
    /// Revokes `device` (`sync leave`, or `sync revoke` from another machine).
    func revoke(_ device: UUID) async throws
    /// Whether the server refuses `device` now.
    func isRevoked(_ device: UUID) -> Bool
    /// The server as the device `enrolment` reaches it.
    func remote(for enrolment: SyncEnrolment) -> any SyncRemote
    /// Every entry the server holds, tombstones included, opened.
    func stored() async throws -> [RemoteEntry]
    /// Keeps a copy of the server's data.
    func backup() async throws
    /// Puts the last copy back (its sequences go back); false, and nothing done, before any backup.
    func restore() async throws -> Bool
    /// The dishonest server's hooks, where this server has them (elsewhere those steps do nothing).
    var hostile: InMemorySyncRemote? { get }
}

/// The in-memory server (DomainTestSupport's InMemorySyncRemote, pages of `pageSize`), with
/// revocation kept beside it: a restored backup does not bring a revoked device back.
public final class InMemoryModelServer: ModelServer {
    public let code = ModelCheck.code
    public let hostile: InMemorySyncRemote?
    private let server: InMemorySyncRemote
    private let state = Mutex<(revoked: Set<UUID>, enrolments: [Int: Int], backup: InMemorySyncRemote.Backup?)>(([], [:], nil))

    public init(pageSize: Int) {
        server = InMemorySyncRemote(pageSize: pageSize)
        hostile = server
    }

    public func enrol(machine: Int) async throws -> SyncEnrolment {
        let count = state.withLock { state in
            state.enrolments[machine, default: 0] += 1
            return state.enrolments[machine]!
        }
        let device = UUID(uuidString: String(format: "00000000-0000-4000-8000-%04d%08d", machine, count))!
        return SyncEnrolment(deviceID: device, token: Array(repeating: UInt8(machine), count: 32))
    }

    public func revoke(_ device: UUID) async throws { _ = state.withLock { $0.revoked.insert(device) } }
    public func isRevoked(_ device: UUID) -> Bool { state.withLock { $0.revoked.contains(device) } }
    public func remote(for enrolment: SyncEnrolment) -> any SyncRemote {
        RevocationCheck(server: server, device: enrolment.deviceID, of: self)
    }
    public func stored() async throws -> [RemoteEntry] { await server.stored }

    public func backup() async throws {
        let copy = await server.backup()
        state.withLock { $0.backup = copy }
    }

    public func restore() async throws -> Bool {
        guard let copy = state.withLock({ $0.backup }) else { return false }
        await server.restore(copy)
        return true
    }

    /// The in-memory server refuses a revoked device, as the real one does.
    private struct RevocationCheck: SyncRemote {
        let server: InMemorySyncRemote
        let device: UUID
        let of: InMemoryModelServer

        func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
            if of.isRevoked(device) { throw .revoked }
            return try await server.pull(after: cursor)
        }

        func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
            if of.isRevoked(device) { throw .revoked }
            return try await server.push(changes)
        }
    }
}
