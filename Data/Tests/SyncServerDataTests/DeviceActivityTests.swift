import Foundation
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

/// When devices were last seen: noted at each authenticated request and each pull by token, kept
/// in memory (the latest per device), written to the store in one batch.
@Suite("Device activity")
struct DeviceActivityTests {
    let setup = SyncServerUseCaseTests()

    @Test("a request and a pull by token note their device; one write keeps the latest per device; nothing more to write after")
    func notedAndWritten() async throws {
        _ = try await setup.created()
        let activity = DeviceActivity(clock: setup.clock)
        let enrol = setup.enrol
        let laptop = try await enrol.execute(
            account: setup.account, authKey: setup.authKey, name: "laptop", deviceKey: nil, address: "192.0.2.1")
        let phone = try await enrol.execute(
            account: setup.account, authKey: setup.authKey, name: "phone", deviceKey: nil, address: "192.0.2.1")
        let authenticate = DefaultAuthenticateDeviceUseCase(store: setup.store, digester: setup.digester, activity: activity)
        let pull = DefaultPullChangesUseCase(
            store: setup.store, digester: setup.digester, clock: setup.clock, notifier: setup.notifier, limits: setup.limits,
            activity: activity)
        let first = setup.clock.now()
        _ = try await authenticate.execute(token: laptop.token)
        setup.clock.advance(seconds: 30)
        _ = try await pull.execute(after: 0, limit: nil, waiting: 0, token: phone.token)
        setup.clock.advance(seconds: 30)
        _ = try await authenticate.execute(token: laptop.token)
        await #expect(throws: SyncServerError.unauthorized) { try await authenticate.execute(token: ServerSamples.secret(9)) }

        let record = RecordDeviceActivityUseCase(activity: activity, store: setup.store)
        #expect(try await record.execute() == 2)
        let seen = try await setup.store.devices(of: setup.account).map(\.lastSeenAt)
        #expect(seen == [first.addingTimeInterval(60), first.addingTimeInterval(30)])
        #expect(try await record.execute() == 0)
    }
}
