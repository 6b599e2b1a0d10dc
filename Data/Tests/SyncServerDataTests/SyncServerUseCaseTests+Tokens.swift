import Foundation
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

extension SyncServerUseCaseTests {
    @Test(
        "a push by token authenticates in its own write: applied as the device's; an unknown token unauthorized, a revoked one told so, nothing written"
    )
    func pushByToken() async throws {
        _ = try await created()
        let laptopEnrolment = try await enrol.execute(
            account: account, authKey: authKey, name: "laptop", deviceKey: nil, address: "192.0.2.1")
        let desk = try await enrol.execute(account: account, authKey: authKey, name: "desk", deviceKey: nil, address: "192.0.2.1")
        let laptop = AuthenticatedDevice(account: account, device: laptopEnrolment.device)
        let notifier = self.notifier
        let activity = DeviceActivity(clock: clock)
        let push = DefaultPushChangesUseCase(
            store: store, digester: digester, clock: clock, notifier: notifier, limits: limits, activity: activity)
        let results = try await push.execute([ServerSamples.change(1, "a"), ServerSamples.change(2, "b")], token: laptopEnrolment.token)
        #expect(results == [.applied(sequence: 1), .applied(sequence: 2)])
        #expect(notifier.changed == [account])
        #expect(await activity.take().map(\.device) == [laptop.device])
        await #expect(throws: SyncServerError.unauthorized) {
            try await push.execute([ServerSamples.change(3, "c")], token: ServerSamples.secret(0x99))
        }
        await #expect(throws: SyncServerError.tooManyChanges(limit: 100)) {
            try await push.execute((0...100).map { ServerSamples.change(UInt8($0), "x") }, token: laptopEnrolment.token)
        }
        try await DefaultRevokeDeviceUseCase(store: store, clock: clock).execute(desk.device, for: laptop)
        await #expect(throws: SyncServerError.deviceRevoked) { try await push.execute([ServerSamples.change(3, "c")], token: desk.token) }
        #expect(try await store.head(of: account) == 2)
    }

    @Test(
        "admission before a body is read: a device the store vouched for within a minute is taken on that word, then asked again; unknown tokens never kept"
    )
    func admission() async throws {
        _ = try await created()
        let desk = try await enrol.execute(account: account, authKey: authKey, name: "desk", deviceKey: nil, address: "192.0.2.1")
        let laptop = try await enrolled("laptop")
        let authenticate = DefaultAuthenticateDeviceUseCase(store: store, digester: digester, recent: RecentDevices(clock: clock))
        let admitted = try await authenticate.admit(token: desk.token)
        #expect(admitted == AuthenticatedDevice(account: account, device: desk.device))
        try await DefaultRevokeDeviceUseCase(store: store, clock: clock).execute(desk.device, for: laptop)
        // Revoked since: still admitted on the store's word of a moment ago (its write checks again)…
        clock.advance(seconds: 59)
        #expect(try await authenticate.admit(token: desk.token) == admitted)
        await #expect(throws: SyncServerError.deviceRevoked) { try await authenticate.execute(token: desk.token) }
        // …and asked of the store once that word is a minute old.
        clock.advance(seconds: 2)
        await #expect(throws: SyncServerError.deviceRevoked) { try await authenticate.admit(token: desk.token) }
        for _ in 1...2 {
            await #expect(throws: SyncServerError.unauthorized) { try await authenticate.admit(token: ServerSamples.secret(0x99)) }
        }
        // Without a memory of devices, every admission asks the store.
        let plain = DefaultAuthenticateDeviceUseCase(store: store, digester: digester)
        await #expect(throws: SyncServerError.deviceRevoked) { try await plain.admit(token: desk.token) }
    }

    @Test("the memory of devices is bounded: when full, the expired go first, then all")
    func recentDevicesBounded() async {
        let recent = RecentDevices(clock: clock, seconds: 60, capacity: 2)
        let devices = (1...3).map { AuthenticatedDevice(account: account, device: DeviceID(ServerSamples.uuid(UInt8($0), high: 0xD0))) }
        let digests = (1...3).map { SecretDigest(bytes: [UInt8($0)]) }
        await recent.vouched(devices[0], for: digests[0])
        clock.advance(seconds: 61)
        await recent.vouched(devices[1], for: digests[1])
        await recent.vouched(devices[2], for: digests[2])
        #expect(await recent.device(for: digests[0]) == nil)
        #expect(await recent.device(for: digests[1]) == devices[1])
        #expect(await recent.device(for: digests[2]) == devices[2])
        await recent.vouched(devices[0], for: digests[0])
        #expect(await recent.device(for: digests[1]) == nil)
        #expect(await recent.device(for: digests[0]) == devices[0])
    }
}
