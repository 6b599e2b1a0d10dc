import Foundation
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

/// The server's side of a sync key rotation: device keys, the rotation, what a device reads after.
extension SyncServerUseCaseTests {
    func enrolment(_ name: String, key: [UInt8]?, authKey: SyncSecret? = nil) async throws -> Enrolment {
        try await enrol.execute(account: account, authKey: authKey ?? self.authKey, name: name, deviceKey: key, address: "192.0.2.1")
    }

    func authenticated(_ enrolment: Enrolment) async throws -> AuthenticatedDevice {
        try await DefaultAuthenticateDeviceUseCase(store: store, digester: digester).execute(token: enrolment.token)
    }

    @Test(
        "a rotation revokes, replaces the auth key, and hands each staying device its wrapped key; a second at the same version conflicts")
    func keyRotation() async throws {
        _ = try await created()
        let laptop = try await authenticated(try await enrolment("laptop", key: [1]))
        let desk = try await authenticated(try await enrolment("desk", key: [2]))
        let lostEnrolment = try await enrolment("lost", key: nil)
        let lost = try await authenticated(lostEnrolment)
        let state = DefaultSyncKeyStateUseCase(store: store)
        let register = DefaultRegisterDeviceKeyUseCase(store: store, limits: limits)
        #expect(
            try await state.execute(for: laptop)
                == SyncKeyState(keyVersion: 1, keyRing: nil, wrapped: nil, deviceKeys: [laptop.device: [1], desk.device: [2]]))
        try await register.execute([3], for: lost)
        try await register.execute([3], for: lost)
        await #expect(throws: SyncServerError.keyConflict("this device has another device key already")) {
            try await register.execute([4], for: lost)
        }

        let newAuthKey = ServerSamples.secret(0x43)
        let rotate = DefaultRotateSyncKeyUseCase(store: store, digester: digester, clock: clock, limits: limits)
        let rotation = SyncKeyRotation(
            keyVersion: 2, authKey: newAuthKey, keyRing: [7], revoke: [lost.device], wrapped: [laptop.device: [11], desk.device: [22]])
        try await rotate.execute(rotation, for: laptop)
        await #expect(throws: SyncServerError.deviceRevoked) { try await authenticated(lostEnrolment) }
        await #expect(throws: SyncServerError.unauthorized) { try await enrolment("again", key: nil) }
        _ = try await enrolment("again", key: [5], authKey: newAuthKey)
        let deskState = try await state.execute(for: desk)
        #expect(deskState.keyVersion == 2 && deskState.keyRing == [7] && deskState.wrapped == WrappedSyncKey(keyVersion: 2, bytes: [22]))
        #expect(Set(deskState.deviceKeys.values) == [[1], [2], [5]])
        let pull = DefaultPullChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits)
        #expect(try await pull.execute(after: 0, limit: nil, waiting: 0, for: desk).keyVersion == 2)
        await #expect(throws: SyncServerError.keyConflict("the sync key is at version 2: a rotation makes version 3")) {
            try await rotate.execute(rotation, for: desk)
        }
        // A key wrapped at an earlier version is not handed out as the current one.
        let third = SyncKeyRotation(
            keyVersion: 3, authKey: ServerSamples.secret(0x44), keyRing: nil, revoke: [], wrapped: [laptop.device: [33]])
        try await rotate.execute(third, for: laptop)
        #expect(try await state.execute(for: desk).wrapped == nil)
    }
}
