import Domain
import DomainTestSupport
import Foundation
import Testing

/// The sync key's life on a machine, over a fake server and the fake sealing: a revocation
/// wraps the new key for the machines that stay, they follow it, a machine with the new code
/// follows it too, and one left out is told.
@Suite("Sync key rotation")
struct SyncKeyUseCaseTests {
    /// The vault's membership, and whether the last replacement asked to send everything again.
    actor Store: SyncMembershipStore {
        var membership: SyncMembership?
        var resent = false
        init(_ membership: SyncMembership?) { self.membership = membership }
        func status() async throws -> SyncLocalStatus { SyncLocalStatus(membership: membership, pending: 0, lastSync: nil) }
        func begin(_ membership: SyncMembership, now: Date, joining: Bool) async throws { self.membership = membership }
        func end() async throws { membership = nil }
        func recordRevoked() async throws {}
        func replace(with membership: SyncMembership, resend: Bool) async throws {
            self.membership = membership
            resent = resend
        }
    }

    /// The server's side of the key for one account, as each device sees it.
    actor Server {
        var version = 1
        var ring: [UInt8]?
        var wrapped: [UUID: [UInt8]] = [:]
        var deviceKeys: [UUID: [UInt8]] = [:]
        var devices: [UUID] = []
        var revoked: Set<UUID> = []

        func add(_ device: UUID, key: [UInt8]?) {
            devices.append(device)
            deviceKeys[device] = key
        }

        func state(for device: UUID) -> RemoteKeyState {
            RemoteKeyState(
                version: version, keyRing: ring, wrapped: wrapped[device],
                deviceKeys: deviceKeys.filter { !revoked.contains($0.key) })
        }

        func rotate(_ rotation: RemoteKeyRotation) throws(SyncError) {
            guard rotation.version == version + 1 else { throw .keyConflict }
            version = rotation.version
            ring = rotation.keyRing
            wrapped = rotation.wrapped
            revoked.formUnion(rotation.revoke)
        }

        func register(_ key: [UInt8], for device: UUID) { deviceKeys[device] = deviceKeys[device] ?? key }

        typealias Backup = (version: Int, ring: [UInt8]?, wrapped: [UUID: [UInt8]], revoked: Set<UUID>)
        /// A copy of the key's state, as a database backup holds it.
        func backup() -> Backup { (version, ring, wrapped, revoked) }
        /// The copy put back: later rotations and revocations are gone.
        func restore(_ copy: Backup) { (version, ring, wrapped, revoked) = copy }
    }

    /// One device's view of the server.
    struct Remote: SyncKeysRemote, SyncDevicesRemote {
        let server: Server
        let device: UUID
        func keyState() async throws(SyncError) -> RemoteKeyState { await server.state(for: device) }
        func rotate(_ rotation: RemoteKeyRotation) async throws(SyncError) { try await server.rotate(rotation) }
        func registerDeviceKey(_ key: [UInt8]) async throws(SyncError) { await server.register(key, for: device) }
        func devices() async throws(SyncError) -> [EnrolledDevice] {
            let revoked = await server.revoked
            return await server.devices.map {
                EnrolledDevice(
                    id: $0, name: "d", enrolledAt: Date(), revokedAt: revoked.contains($0) ? Date() : nil, isThisDevice: $0 == device)
            }
        }
        func revoke(_ device: UUID) async throws(SyncError) {}
    }

    static let account = UUID(uuidString: "00000000-0000-4000-8000-00000000A001")!
    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }
    static func key(_ n: UInt8) -> SyncKey { SyncKey(bytes: Array(repeating: n, count: 32))! }
    static let oldCode = SyncCode(account: account, key: key(1))
    let sealing = FakeKeySealing()
    let server = Server()

    /// Device `n` enrolled with the old code, with a device key unless `withKey` is false.
    func machine(_ n: Int, withKey: Bool = true) async -> (store: Store, remote: Remote) {
        let secret = Self.key(UInt8(100 + n))
        await server.add(Self.id(n), key: withKey ? sealing.deviceKey(secret: secret, code: Self.oldCode) : nil)
        let membership = SyncMembership(
            code: Self.oldCode, server: URL(string: "https://sync.example")!,
            enrolment: SyncEnrolment(deviceID: Self.id(n), token: [UInt8(n)]),
            keys: SyncKeyChain(deviceSecret: withKey ? secret : nil))
        return (Store(membership), Remote(server: server, device: Self.id(n)))
    }

    func keys(_ store: Store, random: UInt8 = 0x50) -> SyncKeyUseCase {
        SyncKeyUseCase(store: store, sealing: sealing, random: CountingRandomSource(start: random))
    }

    @Test(
        "a revocation: the next version, wrapped for each machine that stays with a bound device key, the earlier key kept, everything sent again"
    )
    func revoke() async throws {
        let laptop = await machine(1)
        let desktop = await machine(2)
        _ = await machine(3)
        let old = await machine(4, withKey: false)
        let report = try await keys(laptop.store).revoke(Self.id(3), remote: laptop.remote)
        #expect(report == KeyRotationReport(version: 2, sharedWith: 2, notShared: [Self.id(4)]))
        let rotated = try #require(await laptop.store.membership)
        #expect(rotated.keys.version == 2 && rotated.keys.earlier == [1: Self.key(1)] && rotated.code.key != Self.key(1))
        #expect(await laptop.store.resent)
        #expect(await Set(server.wrapped.keys) == [Self.id(1), Self.id(2)])
        await #expect(throws: SyncError.unknownDevice) { try await keys(laptop.store).revoke(Self.id(9), remote: laptop.remote) }

        // The desktop follows: the new key, the old one kept for older entries.
        let followed = try await keys(desktop.store).follow(remote: desktop.remote)
        #expect(followed.code == rotated.code && followed.keys.version == 2 && followed.keys.earlier == [1: Self.key(1)])
        #expect(await desktop.store.membership == followed)
        // The machine left out (no device key) is told, and keeps its membership as it was.
        await #expect(throws: SyncError.keyNotShared) { try await keys(old.store).follow(remote: old.remote) }
        #expect(await old.store.membership?.keys.version == 1)
    }

    @Test("a rotation that revokes no one (after passwd) wraps the new key for every machine, this one included")
    func rotateWithoutRevoking() async throws {
        let laptop = await machine(1)
        _ = await machine(2)
        let report = try await keys(laptop.store).rotate(remote: laptop.remote)
        #expect(report == KeyRotationReport(version: 2, sharedWith: 2, notShared: []))
        #expect(await server.revoked.isEmpty)
    }

    @Test("a machine that joins with the new code follows the version through the key ring; one already current asks nothing more")
    func joinerWithNewCode() async throws {
        let laptop = await machine(1)
        _ = await machine(2)
        _ = try await keys(laptop.store).revoke(Self.id(2), remote: laptop.remote)
        let newCode = try #require(await laptop.store.membership?.code)
        let tablet = await machine(5)
        let joined = try #require(await tablet.store.membership).with(code: newCode, keys: SyncKeyChain(deviceSecret: Self.key(105)))
        try await tablet.store.replace(with: joined, resend: false)
        let followed = try await keys(tablet.store).follow(remote: tablet.remote)
        #expect(followed.code == newCode && followed.keys.version == 2 && followed.keys.earlier == [1: Self.key(1)])
        #expect(try await keys(tablet.store).follow(remote: tablet.remote) == followed)
    }

    @Test("a key wrapped by a holder of no previous key (the server) is not taken")
    func forgedWrapRefused() async throws {
        let desktop = await machine(2)
        let deviceKey = try #require(await server.deviceKeys[Self.id(2)])
        let forged = try sealing.wrap(
            Self.key(0xEE), version: 2, for: deviceKey, device: Self.id(2), account: Self.account, previous: Self.key(0x55))
        try await server.rotate(
            RemoteKeyRotation(
                code: SyncCode(account: Self.account, key: Self.key(0xEE)), version: 2, keyRing: [], revoke: [],
                wrapped: [Self.id(2): forged]))
        await #expect(throws: SyncError.keyNotShared) { try await keys(desktop.store).follow(remote: desktop.remote) }
    }

    @Test("a machine enrolled before device keys registers one once; another rotating first is a conflict")
    func registerAndConflict() async throws {
        let old = await machine(4, withKey: false)
        let registered = try await keys(old.store).registerDeviceKey(remote: old.remote)
        #expect(registered.keys.deviceSecret != nil)
        #expect(
            await server.deviceKeys[Self.id(4)] == sealing.deviceKey(secret: try #require(registered.keys.deviceSecret), code: Self.oldCode)
        )
        #expect(try await keys(old.store).registerDeviceKey(remote: old.remote) == registered)
        let laptop = await machine(1)
        _ = await machine(2)
        try await server.rotate(
            RemoteKeyRotation(code: SyncCode(account: Self.account, key: Self.key(7)), version: 2, keyRing: [], revoke: [], wrapped: [:]))
        await #expect(throws: SyncError.keyNotShared) { try await keys(laptop.store).revoke(Self.id(2), remote: laptop.remote) }
    }

    @Test(
        "a server restored from before a revocation is given it back by a machine that followed it: the same key and version, the device revoked again, the key wrapped for those that stay"
    )
    func giveBackAfterRestore() async throws {
        let laptop = await machine(1)
        let desktop = await machine(2)
        _ = await machine(3)
        let backup = await server.backup()
        _ = try await keys(laptop.store).revoke(Self.id(3), remote: laptop.remote)
        let followed = try await keys(desktop.store).follow(remote: desktop.remote)
        #expect(followed.keys.revoked == [Self.id(3)])
        #expect(await laptop.store.membership?.keys.revoked == [Self.id(3)])

        await server.restore(backup)
        #expect(await server.version == 1)
        #expect(await server.revoked.isEmpty)
        #expect(try await keys(desktop.store).giveBack(remote: desktop.remote) == 1)
        #expect(await server.version == 2)
        #expect(await server.revoked == [Self.id(3)])
        #expect(await Set(server.wrapped.keys) == [Self.id(1), Self.id(2)])
        #expect(
            try sealing.openRing(#require(await server.ring), under: followed.code.key, version: 2, account: Self.account) == [
                1: Self.key(1)
            ])
        // The laptop, already at that version, follows nothing new and gives nothing back.
        #expect(try await keys(laptop.store).follow(remote: laptop.remote) == laptop.store.membership)
        #expect(try await keys(laptop.store).giveBack(remote: laptop.remote) == 0)
    }

    @Test("two replacements lost are given back one version after the other; a machine without an earlier key cannot, and says so")
    func giveBackSeveral() async throws {
        let laptop = await machine(1)
        _ = await machine(2)
        _ = await machine(3)
        let backup = await server.backup()
        _ = try await keys(laptop.store).revoke(Self.id(3), remote: laptop.remote)
        _ = try await keys(laptop.store, random: 0x60).rotate(remote: laptop.remote)
        let current = try #require(await laptop.store.membership)
        #expect(current.keys.version == 3)
        await server.restore(backup)
        #expect(try await keys(laptop.store).giveBack(remote: laptop.remote) == 2)
        #expect(await server.version == 3)
        #expect(await server.revoked == [Self.id(3)])

        await server.restore(backup)
        let forgetful = current.with(code: current.code, keys: SyncKeyChain(version: 3, earlier: [1: Self.key(1)], revoked: [Self.id(3)]))
        try await laptop.store.replace(with: forgetful, resend: false)
        await #expect(throws: SyncError.serverKeyBehind) { try await keys(laptop.store).giveBack(remote: laptop.remote) }
        #expect(await server.version == 1)
    }
}
