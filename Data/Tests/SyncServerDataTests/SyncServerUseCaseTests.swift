import Foundation
import SyncServer
import SyncServerData
import SyncServerTestSupport
import Testing

/// The server's use cases, headless, over the in-memory store, the real digest, a stopped
/// clock and counting randomness.
@Suite("Sync server use cases")
struct SyncServerUseCaseTests {
    let store: any SyncServerStore = InMemorySyncServerStore()
    let clock = SettableServerClock(unix: 1_800_000_000)
    let random = CountingServerRandom()
    var notifier: SteppingChangeNotifier { SteppingChangeNotifier(clock: clock) }
    let digester = SHA256SecretDigester()
    let limits = SyncLimits()
    let account = SyncAccountID(ServerSamples.uuid(1, high: 0xA0))
    let authKey = ServerSamples.secret(0x42)

    var create: DefaultCreateSyncAccountUseCase {
        DefaultCreateSyncAccountUseCase(store: store, digester: digester, clock: clock, limits: limits)
    }

    func created() async throws -> Self {
        try await create.execute(account: account, authKey: authKey, address: "192.0.2.1", invitation: nil)
        return self
    }

    var enrol: DefaultEnrolDeviceUseCase {
        DefaultEnrolDeviceUseCase(store: store, digester: digester, clock: clock, random: random, limits: limits)
    }

    func enrolled(_ name: String = "laptop") async throws -> AuthenticatedDevice {
        let enrolment = try await enrol.execute(account: account, authKey: authKey, name: name, deviceKey: nil, address: "192.0.2.1")
        return try await DefaultAuthenticateDeviceUseCase(store: store, digester: digester).execute(token: enrolment.token)
    }

    @Test("the server keeps only digests: the auth key and the device token are not in the store")
    func onlyDigests() async throws {
        let setup = try await created()
        let enrolment = try await setup.enrol.execute(
            account: account, authKey: authKey, name: "laptop", deviceKey: nil, address: "192.0.2.1")
        let stored = try #require(try await store.account(account))
        #expect(stored.authKeyDigest.bytes != authKey.bytes && stored.authKeyDigest.bytes.count == 32)
        let device = try #require(try await store.devices(of: account).first)
        #expect(device.tokenDigest == digester.digest(enrolment.token))
        #expect(device.tokenDigest.bytes != enrolment.token.bytes)
    }

    @Test("a wrong auth key, an unknown account and a wrong token are all 'unauthorized'")
    func unauthorized() async throws {
        _ = try await created()
        await #expect(throws: SyncServerError.unauthorized) {
            try await enrol.execute(account: account, authKey: ServerSamples.secret(1), name: "x", deviceKey: nil, address: "192.0.2.1")
        }
        await #expect(throws: SyncServerError.unauthorized) {
            try await enrol.execute(
                account: SyncAccountID(ServerSamples.uuid(9)), authKey: authKey, name: "x", deviceKey: nil, address: "192.0.2.1")
        }
        await #expect(throws: SyncServerError.unauthorized) {
            try await DefaultAuthenticateDeviceUseCase(store: store, digester: digester).execute(token: ServerSamples.secret(7))
        }
    }

    @Test(
        "accounts opened from one address are limited per hour (taken ids count), then refused with the window as Retry-After; others go on; an hour later again"
    )
    func accountCreationLimit() async throws {
        for n in 1...limits.accountsPerAddress {
            let id = SyncAccountID(ServerSamples.uuid(UInt8(n), high: 0xB0))
            try await create.execute(account: id, authKey: authKey, address: "203.0.113.5", invitation: nil)
        }
        let next = SyncAccountID(ServerSamples.uuid(99, high: 0xB0))
        await #expect(throws: SyncServerError.tooManyAccounts(retryAfterSeconds: 3600)) {
            try await create.execute(account: next, authKey: authKey, address: "203.0.113.5", invitation: nil)
        }
        #expect(try await store.account(next) == nil)
        try await create.execute(account: next, authKey: authKey, address: "198.51.100.1", invitation: nil)
        clock.advance(seconds: 3601)
        try await create.execute(
            account: SyncAccountID(ServerSamples.uuid(98, high: 0xB0)), authKey: authKey, address: "203.0.113.5", invitation: nil)
    }

    @Test("a revoked device is refused at once; another account's device is 'not found' and untouched")
    func revocation() async throws {
        _ = try await created()
        let laptop = try await enrolled("laptop")
        let deskEnrolment = try await enrol.execute(account: account, authKey: authKey, name: "desk", deviceKey: nil, address: "192.0.2.1")
        let strangerAccount = SyncAccountID(ServerSamples.uuid(2, high: 0xA0))
        try await create.execute(account: strangerAccount, authKey: ServerSamples.secret(0x43), address: "192.0.2.9", invitation: nil)
        let stranger = try await enrol.execute(
            account: strangerAccount, authKey: ServerSamples.secret(0x43), name: "stranger", deviceKey: nil, address: "192.0.2.9")
        let revoke = DefaultRevokeDeviceUseCase(store: store, clock: clock)
        let authenticate = DefaultAuthenticateDeviceUseCase(store: store, digester: digester)
        await #expect(throws: SyncServerError.deviceNotFound) { try await revoke.execute(stranger.device, for: laptop) }
        #expect(try await authenticate.execute(token: stranger.token).device == stranger.device)
        try await revoke.execute(deskEnrolment.device, for: laptop)
        let devices = try await DefaultListDevicesUseCase(store: store).execute(for: laptop)
        #expect(devices.map(\.name) == ["laptop", "desk"])
        #expect(devices.map(\.isRevoked) == [false, true])
        // A revoked device's own token is told so (to join again); an unknown token is just unauthorized.
        await #expect(throws: SyncServerError.deviceRevoked) { try await authenticate.execute(token: deskEnrolment.token) }
    }

    @Test("enrolment is rate-limited per account: the 11th attempt within the hour is refused, wrong keys count too")
    func rateLimit() async throws {
        _ = try await created()
        for attempt in 1...10 {
            let key = attempt.isMultiple(of: 2) ? authKey : ServerSamples.secret(1)
            _ = try? await enrol.execute(account: account, authKey: key, name: "d\(attempt)", deviceKey: nil, address: "192.0.2.\(attempt)")
        }
        await #expect(throws: SyncServerError.rateLimited(retryAfterSeconds: 3600)) {
            try await enrol.execute(account: account, authKey: authKey, name: "late", deviceKey: nil, address: "198.51.100.1")
        }
        clock.advance(seconds: 3601)
        _ = try await enrol.execute(account: account, authKey: authKey, name: "next hour", deviceKey: nil, address: "198.51.100.1")
    }

    @Test("push then pull: pages of the asked size in order, the head and the server's time")
    func pushAndPull() async throws {
        _ = try await created()
        let device = try await enrolled()
        let push = DefaultPushChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits)
        let pull = DefaultPullChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits)
        let results = try await push.execute((1...5).map { ServerSamples.change(UInt8($0), "e\($0)") }, for: device)
        #expect(results == (1...5).map { .applied(sequence: Int64($0)) })
        let page = try await pull.execute(after: 0, limit: 2, waiting: 0, for: device)
        #expect(page.entries.map(\.sequence) == [1, 2] && page.hasMore && page.head == 5)
        #expect(page.serverTime == clock.now())
        let rest = try await pull.execute(after: try #require(page.nextCursor), limit: nil, waiting: 0, for: device)
        #expect(rest.entries.map(\.sequence) == [3, 4, 5] && !rest.hasMore)
        await #expect(throws: SyncServerError.invalid("a page has 1 to 500 entries")) {
            try await pull.execute(after: 0, limit: 501, waiting: 0, for: device)
        }
        await #expect(throws: SyncServerError.tooManyChanges(limit: 100)) {
            try await push.execute((0...100).map { ServerSamples.change(UInt8($0), "x") }, for: device)
        }
        #expect(try await store.head(of: account) == 5)
    }

    @Test("a pull by token authenticates in its own read: the device's page; an unknown token unauthorized, a revoked one told so")
    func pullByToken() async throws {
        _ = try await created()
        let enrolment = try await enrol.execute(account: account, authKey: authKey, name: "laptop", deviceKey: nil, address: "192.0.2.1")
        let desk = try await enrol.execute(account: account, authKey: authKey, name: "desk", deviceKey: nil, address: "192.0.2.1")
        let laptop = AuthenticatedDevice(account: account, device: enrolment.device)
        let push = DefaultPushChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits)
        let pull = DefaultPullChangesUseCase(store: store, digester: digester, clock: clock, notifier: notifier, limits: limits)
        _ = try await push.execute((1...3).map { ServerSamples.change(UInt8($0), "e\($0)") }, for: laptop)
        let page = try await pull.execute(after: 1, limit: nil, waiting: 0, token: enrolment.token)
        #expect(page == (try await pull.execute(after: 1, limit: nil, waiting: 0, for: laptop)))
        #expect(page.entries.map(\.sequence) == [2, 3] && page.head == 3)
        await #expect(throws: SyncServerError.unauthorized) {
            try await pull.execute(after: 0, limit: nil, waiting: 0, token: ServerSamples.secret(0x99))
        }
        try await DefaultRevokeDeviceUseCase(store: store, clock: clock).execute(desk.device, for: laptop)
        await #expect(throws: SyncServerError.deviceRevoked) { try await pull.execute(after: 0, limit: nil, waiting: 0, token: desk.token) }
    }

    @Test("a cursor older than the tombstone horizon gets 'expired'; 0 is a full pull")
    func horizon() async throws {
        _ = try await created()
        let device = try await enrolled()
        let push = DefaultPushChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits)
        let pull = DefaultPullChangesUseCase(
            store: store, digester: SHA256SecretDigester(), clock: clock, notifier: notifier, limits: limits)
        _ = try await push.execute([ServerSamples.change(1, "a"), ServerSamples.change(2, "b")], for: device)
        _ = try await push.execute([ServerSamples.change(1, basedOn: 1, "", deleted: true)], for: device)
        clock.advance(seconds: Double(limits.tombstoneLifetime) + 1)
        #expect(try await DefaultExpireTombstonesUseCase(store: store, clock: clock, limits: limits).execute() == 1)
        await #expect(throws: SyncServerError.cursorExpired(horizon: 3)) {
            try await pull.execute(after: 2, limit: nil, waiting: 0, for: device)
        }
        #expect(try await pull.execute(after: 0, limit: nil, waiting: 0, for: device).entries.map(\.sequence) == [2])
        #expect(try await pull.execute(after: 3, limit: nil, waiting: 0, for: device).entries.isEmpty)
    }

    @Test("an account can have 32 devices; a revoked one frees its place")
    func deviceLimit() async throws {
        var limits = SyncLimits()
        limits.devicesPerAccount = 2
        _ = try await created()
        let enrol = DefaultEnrolDeviceUseCase(store: store, digester: digester, clock: clock, random: random, limits: limits)
        let first = try await enrol.execute(account: account, authKey: authKey, name: "a", deviceKey: nil, address: "192.0.2.1")
        _ = try await enrol.execute(account: account, authKey: authKey, name: "b", deviceKey: nil, address: "192.0.2.1")
        await #expect(throws: SyncServerError.tooManyDevices(limit: 2)) {
            try await enrol.execute(account: account, authKey: authKey, name: "c", deviceKey: nil, address: "192.0.2.1")
        }
        let caller = AuthenticatedDevice(account: account, device: first.device)
        try await DefaultRevokeDeviceUseCase(store: store, clock: clock).execute(first.device, for: caller)
        _ = try await enrol.execute(account: account, authKey: authKey, name: "c", deviceKey: nil, address: "192.0.2.1")
        #expect(SyncLimits().devicesPerAccount == 32)
    }
}
