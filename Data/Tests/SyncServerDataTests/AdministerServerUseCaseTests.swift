import Foundation
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

/// `tokens-server admin`'s use case over the in-memory store: references as an operator types
/// them, a revocation that takes effect at once, a deletion that leaves nothing.
@Suite("Sync server administration")
struct AdministerServerUseCaseTests {
    let store = InMemorySyncServerStore()
    let clock = SettableServerClock(unix: 1_800_000_000)
    let first = SyncAccountID(UUID(uuidString: "a1b2c3d4-0000-4000-8000-000000000001")!)
    let second = SyncAccountID(UUID(uuidString: "a1b2ffff-0000-4000-8000-000000000002")!)
    var admin: DefaultAdministerServerUseCase {
        DefaultAdministerServerUseCase(
            store: store, administration: store, clock: clock, random: CountingServerRandom(), digester: SHA256SecretDigester())
    }

    func create(_ account: UInt8, signup: SignupPolicy, invitation: SyncSecret?) async throws {
        var limits = SyncLimits()
        limits.signup = signup
        try await DefaultCreateSyncAccountUseCase(store: store, digester: SHA256SecretDigester(), clock: clock, limits: limits).execute(
            account: SyncAccountID(ServerSamples.uuid(account, high: 0xB0)), authKey: ServerSamples.secret(1), address: "192.0.2.1",
            invitation: invitation)
    }

    func seeded() async throws {
        for id in [first, second] {
            try await store.createAccount(SyncAccountRecord(id: id, authKeyDigest: SecretDigest(bytes: [1]), createdAt: clock.now()))
        }
        for (n, name) in [(1, "laptop"), (2, "phone"), (3, "phone")] as [(UInt8, String)] {
            let device = SyncDevice(
                id: DeviceID(ServerSamples.uuid(n, high: 0xD0)), account: first, name: name, tokenDigest: SecretDigest(bytes: [n]),
                enrolledAt: clock.now())
            #expect(await store.addDevice(device, limit: 5))
        }
    }

    @Test("an account is named by a unique prefix of its id, dashes and case ignored; anything else is refused with what to do")
    func accountReferences() async throws {
        try await seeded()
        #expect(try await admin.devices(ofAccount: "A1B2C3").account == first)
        #expect(try await admin.devices(ofAccount: "a1b2ffff-00").account == second)
        await #expect(throws: AdministrationError.ambiguousAccount("a1b2", matches: 2)) { try await admin.devices(ofAccount: "a1b2") }
        await #expect(throws: AdministrationError.noAccount("ffff")) { try await admin.devices(ofAccount: "ffff") }
        await #expect(throws: AdministrationError.badReference("a1b")) { try await admin.devices(ofAccount: "a1b") }
        await #expect(throws: AdministrationError.badReference("laptop")) { try await admin.deleteAccount("laptop") }
    }

    @Test("a device is revoked by its name or its id's prefix: its token is refused at once; a name two devices share is refused")
    func revokeByNameOrId() async throws {
        try await seeded()
        clock.advance(seconds: 60)
        let revoked = try await admin.revoke(device: "laptop", ofAccount: "a1b2c3d4")
        #expect(revoked.name == "laptop" && revoked.revokedAt == clock.now())
        #expect(await store.device(withToken: SecretDigest(bytes: [1]))?.isRevoked == true)
        await #expect(throws: AdministrationError.ambiguousDevice("phone", matches: 2)) {
            try await admin.revoke(device: "phone", ofAccount: "a1b2c3d4")
        }
        let byID = try await admin.revoke(device: ServerSamples.uuid(3, high: 0xD0).uuidString, ofAccount: "a1b2c3")
        #expect(byID.id == DeviceID(ServerSamples.uuid(3, high: 0xD0)))
        // Again: the first revocation's time stays.
        clock.advance(seconds: 60)
        #expect(try await admin.revoke(device: "laptop", ofAccount: "a1b2c3d4").revokedAt == revoked.revokedAt)
        await #expect(throws: AdministrationError.noDevice("tablet")) { try await admin.revoke(device: "tablet", ofAccount: "a1b2c3d4") }
    }

    @Test("deleting an account answers what it held and leaves the others")
    func deleteAccount() async throws {
        try await seeded()
        let deleted = try await admin.deleteAccount("a1b2c3")
        #expect(deleted.id == first && deleted.activeDevices == 3)
        #expect(try await admin.accounts().map(\.id) == [second])
        #expect(await store.devices(of: first).isEmpty)
    }

    @Test("a quota changes part by part: a part not named stays, default gives it back to the server's; nothing named writes nothing")
    func quotaChanges() async throws {
        try await seeded()
        let entries = try await admin.changeQuota(AccountQuotaChange(entries: .set(5)), ofAccount: "a1b2c3")
        #expect(entries.id == first && entries.quota == AccountQuota(entries: 5))
        let both = try await admin.changeQuota(AccountQuotaChange(bytes: .set(1024)), ofAccount: "a1b2c3")
        #expect(both.quota == AccountQuota(entries: 5, bytes: 1024))
        #expect(try await admin.changeQuota(AccountQuotaChange(), ofAccount: "a1b2c3").quota == both.quota)
        let back = try await admin.changeQuota(AccountQuotaChange(entries: .serverDefault), ofAccount: "a1b2c3")
        #expect(back.quota == AccountQuota(bytes: 1024))
        // What the answer says is what the store holds; the other account keeps the server's.
        #expect(try await admin.account("a1b2c3").quota == back.quota)
        #expect(try await admin.account("a1b2ff").quota == .serverDefault)
        await #expect(throws: AdministrationError.noAccount("ffff")) {
            try await admin.changeQuota(AccountQuotaChange(entries: .set(1)), ofAccount: "ffff")
        }
    }

    @Test("with invitations, an account opens only with an unused, unexpired invitation; the same account may present it again")
    func invitations() async throws {
        await #expect(throws: SyncServerError.invitationRequired) { try await create(1, signup: .invitation, invitation: nil) }
        await #expect(throws: SyncServerError.invitationRefused) {
            try await create(1, signup: .invitation, invitation: ServerSamples.secret(9))
        }
        let invited = try await admin.invite(validFor: 3600)
        #expect(invited.expiresAt == clock.now().addingTimeInterval(3600))
        try await create(1, signup: .invitation, invitation: invited.code)
        // A retry of the same request is "exists", not "refused"; another account cannot use it.
        await #expect(throws: SyncServerError.accountExists) { try await create(1, signup: .invitation, invitation: invited.code) }
        await #expect(throws: SyncServerError.invitationRefused) { try await create(2, signup: .invitation, invitation: invited.code) }
        let late = try await admin.invite(validFor: 60)
        clock.advance(seconds: 60)
        await #expect(throws: SyncServerError.invitationRefused) { try await create(3, signup: .invitation, invitation: late.code) }
        // Open takes none; closed opens nothing, invitation or not.
        try await create(4, signup: .open, invitation: nil)
        await #expect(throws: SyncServerError.signupClosed) { try await create(5, signup: .closed, invitation: late.code) }
        #expect(try await admin.accounts().count == 2)
    }
}
