import Domain
import DomainTestSupport
import Foundation
import Testing

/// Opening, joining and leaving a sync account, over fakes of the server and the vault.
@Suite("Setting up sync")
struct SyncSetupUseCaseTests {
    actor Store: SyncMembershipStore {
        var membership: SyncMembership?
        var joining: Bool?
        func status() async throws -> SyncLocalStatus { SyncLocalStatus(membership: membership, pending: 0, lastSync: nil) }
        func begin(_ membership: SyncMembership, now: Date, joining: Bool) async throws {
            self.membership = membership
            self.joining = joining
        }
        func end() async throws { membership = nil }
        func recordRevoked() async throws {}
        func replace(with membership: SyncMembership, resend: Bool) async throws { self.membership = membership }
    }

    actor Server: SyncAccountRemote, SyncDevicesRemote {
        var opened = false
        var revoked: [UUID] = []
        var failure: SyncError?
        func fail(with error: SyncError?) { failure = error }
        func createAccount(invitation: SyncInvitation?) async throws(SyncError) {
            if opened { throw .accountExists }
            opened = true
        }
        func enrol(deviceName: String, deviceKey: [UInt8]) async throws(SyncError) -> SyncEnrolment {
            guard opened else { throw .unauthorized }
            return SyncEnrolment(deviceID: UUID(uuidString: "00000000-0000-4000-8000-000000000042")!, token: Array(repeating: 1, count: 32))
        }
        func devices() async throws(SyncError) -> [EnrolledDevice] { [] }
        func revoke(_ device: UUID) async throws(SyncError) {
            if let failure { throw failure }
            revoked.append(device)
        }
    }

    let store = Store()
    let server = Server()
    let url = URL(string: "https://sync.example")!
    var setup: SyncSetupUseCase {
        SyncSetupUseCase(store: store, random: CountingRandomSource(), clock: FixedClock(), sealing: FakeKeySealing())
    }

    @Test("open makes the account and enrols; join enrols, placing this machine's entries after the account's")
    func openAndJoin() async throws {
        let code = setup.newCode()
        let membership = try await setup.open(code, server: url, deviceName: "laptop", remote: server)
        #expect(membership.code == code && membership.server == url)
        #expect(await store.membership == membership)
        #expect(await store.joining == false)
        await #expect(throws: SyncError.alreadySetUp) { try await setup.join(code, server: url, deviceName: "x", remote: server) }
        try await store.end()
        _ = try await setup.join(code, server: url, deviceName: "desktop", remote: server)
        #expect(await store.joining == true)
    }

    @Test("a failed enrolment stores nothing")
    func failedEnrolment() async throws {
        await #expect(throws: SyncError.unauthorized) {
            try await setup.join(setup.newCode(), server: url, deviceName: "d", remote: server)
        }
        #expect(await store.membership == nil)
    }

    @Test("leaving revokes this device and forgets the membership; offline, it still forgets, and says the server was not told")
    func leave() async throws {
        await #expect(throws: SyncError.notSetUp) { try await setup.leave(devices: server) }
        _ = try await setup.open(setup.newCode(), server: url, deviceName: "laptop", remote: server)
        #expect(try await setup.leave(devices: server))
        #expect(await server.revoked.count == 1)
        #expect(await store.membership == nil)
        _ = try await setup.join(setup.newCode(), server: url, deviceName: "laptop", remote: server)
        await server.fail(with: .offline)
        #expect(try await setup.leave(devices: server) == false)
        #expect(await store.membership == nil)
    }
}

@Suite("Fake key sealing")
struct FakeKeySealingTests {
    @Test("the fake keeps the sealing contract")
    func contract() throws { try SyncKeySealingContract.check(FakeKeySealing()) }
}
