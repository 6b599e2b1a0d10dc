import Domain
import DomainTestSupport
import Foundation
import Testing

/// The screen's background sync: it reads the membership at each sync, keeps one connection
/// while the server stays the same, remembers a refusal as revoked, and stops when closed.
@Suite("Background sync of an unlocked vault")
struct MembershipSyncUseCaseTests {
    /// A vault's sync side in memory (DomainTestSupport's store) with a membership beside it.
    actor Vault: SyncLocalStore, SyncMembershipStore {
        let entries = InMemorySyncLocalStore()
        var membership: SyncMembership?
        var revoked = false

        init(_ membership: SyncMembership?) { self.membership = membership }
        func snapshot() async throws -> SyncSnapshot { try await entries.snapshot() }
        func pendingCount() async throws -> Int { try await entries.pendingCount() }
        func commit(_ snapshot: SyncSnapshot, over taken: SyncSnapshot, report: SyncReport) async throws {
            try await entries.commit(snapshot, over: taken, report: report)
        }
        func status() async throws -> SyncLocalStatus {
            SyncLocalStatus(membership: membership, pending: 0, lastSync: nil, revoked: revoked)
        }
        func begin(_ membership: SyncMembership, now: Date, joining: Bool) async throws { self.membership = membership }
        func end() async throws { membership = nil }
        func recordRevoked() async throws { revoked = true }
        func replace(with membership: SyncMembership, resend: Bool) async throws { self.membership = membership }
    }

    /// The in-memory server as a connection's remote (the key is never asked for here: the
    /// membership has a device secret and the key does not change).
    struct Remote: SyncRemote, SyncKeysRemote, SyncDevicesRemote {
        let server: InMemorySyncRemote
        func pull(after cursor: Int64) async throws(SyncError) -> RemotePage { try await server.pull(after: cursor) }
        func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] { try await server.push(changes) }
        func keyState() async throws(SyncError) -> RemoteKeyState { throw .incompatible }
        func rotate(_ rotation: RemoteKeyRotation) async throws(SyncError) { throw .incompatible }
        func registerDeviceKey(_ key: [UInt8]) async throws(SyncError) { throw .incompatible }
        func devices() async throws(SyncError) -> [EnrolledDevice] { throw .incompatible }
        func revoke(_ device: UUID) async throws(SyncError) { throw .incompatible }
    }

    /// Every connection opened (server and CA file) and how many were closed.
    final class Connector: SyncServerConnector, @unchecked Sendable {
        private let lock = NSLock()
        private var _opened: [(server: URL, caFile: String?)] = []
        private var _closed = 0
        let server = InMemorySyncRemote()

        var opened: [(server: URL, caFile: String?)] { lock.withLock { _opened } }
        var closed: Int { lock.withLock { _closed } }

        func connect(to server: URL, caFile: String?) -> any SyncServerConnection {
            lock.withLock { _opened.append((server, caFile)) }
            return Connection(server: server, of: self)
        }

        fileprivate func close() { lock.withLock { _closed += 1 } }

        struct Connection: SyncServerConnection {
            let server: URL
            let of: Connector
            func remote(for membership: SyncMembership) -> any SyncRemote & SyncKeysRemote & SyncDevicesRemote { Remote(server: of.server) }
            func close() async { of.close() }
        }
    }

    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }
    static let first = URL(string: "https://sync.example")!
    static let second = URL(string: "https://other.example")!

    static func membership(server: URL, caFile: String? = "/etc/remembered.pem") -> SyncMembership {
        SyncMembership(
            code: SyncCode(account: id(1), key: SyncKey(bytes: Array(repeating: 7, count: 32))!), server: server,
            enrolment: SyncEnrolment(deviceID: id(2), token: [1]), caFile: caFile,
            keys: SyncKeyChain(deviceSecret: SyncKey(bytes: Array(repeating: 9, count: 32))!))
    }

    func sync(_ vault: Vault, _ connector: Connector, caFile: String? = nil) -> MembershipSyncUseCase {
        let keys = SyncKeyUseCase(store: vault, sealing: FakeKeySealing(), random: CountingRandomSource())
        return MembershipSyncUseCase(
            store: vault, round: SyncRoundUseCase(store: vault, keys: keys), connector: connector, caFile: caFile)
    }

    @Test("no membership: not set up, and no connection opened")
    func notSetUp() async throws {
        let connector = Connector()
        await #expect(throws: SyncError.notSetUp) { try await sync(Vault(nil), connector).execute() }
        #expect(connector.opened.isEmpty)
    }

    @Test("one connection while the server stays the same (the CA file remembered with the membership); a new one when it changes")
    func keepsOneConnectionPerServer() async throws {
        let vault = Vault(Self.membership(server: Self.first))
        let connector = Connector()
        let useCase = sync(vault, connector)
        await vault.entries.change(Self.id(3)) { $0 = .sample(Self.id(3)) }
        #expect(try await useCase.execute().sent == 1)
        #expect(try await useCase.execute().sent == 0)
        #expect(connector.opened.map(\.server) == [Self.first] && connector.opened.map(\.caFile) == ["/etc/remembered.pem"])

        try await vault.replace(with: Self.membership(server: Self.second), resend: false)
        _ = try await useCase.execute()
        #expect(connector.opened.map(\.server) == [Self.first, Self.second])
        #expect(connector.closed == 1)

        await useCase.close()
        #expect(connector.closed == 2)
        await #expect(throws: SyncError.notSetUp) { try await useCase.execute() }
        #expect(connector.opened.count == 2)
    }

    @Test("a CA file given to the use case wins over the one the membership remembers")
    func givenCAFileWins() async throws {
        let connector = Connector()
        _ = try await sync(Vault(Self.membership(server: Self.first)), connector, caFile: "/etc/given.pem").execute()
        #expect(connector.opened.map(\.caFile) == ["/etc/given.pem"])
    }

    @Test("a refusal as revoked is remembered in the vault and passed on")
    func revokedIsRemembered() async throws {
        let vault = Vault(Self.membership(server: Self.first))
        let connector = Connector()
        await connector.server.failNext(with: .revoked)
        await #expect(throws: SyncError.revoked) { try await sync(vault, connector).execute() }
        #expect(try await vault.status().revoked)
    }
}
