import Domain
import DomainTestSupport
import Foundation
import IntegrationTestSupport
import SyncComposition
import Synchronization
import Testing

/// The real sync client (the generated client over AsyncHTTPClient, entries sealed with the
/// sync keys) against `tokens-server` as a process: the same contract as `InMemorySyncRemote`,
/// the account and device calls, and transport failures as the user's SyncErrors.
@Suite("The sync client against tokens-server")
struct SyncClientProcessTests {
    /// Each request's deadline. The tests run on a thread of their own (`onOwnThread`): the
    /// synchronous process tests beside them hold the cooperative threads (two on a 2-core
    /// machine) for minutes, and an answer that arrived could not be read until one was free
    /// while AsyncHTTPClient's deadline counted the wait (CI saw requests time out at 60 s, and
    /// once at 600 s on a machine loaded three times over).
    static let timeout = Duration.seconds(120)

    /// A sync account: its key and id.
    struct Account {
        let key = SyncKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })!
        let id = UUID()
    }

    /// A new sync account opened through `connection`, with this machine enrolled: its remote.
    static func enrolled(
        through connection: SyncConnection, name: String = "laptop"
    ) async throws -> (remote: any SyncRemote & SyncDevicesRemote, account: Account) {
        let account = Account()
        let remote = connection.makeAccountRemote(key: account.key, account: account.id)
        try await remote.createAccount(invitation: nil)
        let enrolment = try await remote.enrol(deviceName: name, deviceKey: [0xD0])
        return (connection.makeRemote(key: account.key, account: account.id, token: enrolment.token), account)
    }

    /// Every clause of the contract, each on a new account of one server.
    static func keepsContract(_ server: ServerProcess) async throws {
        try await SyncConnection.with(server: server.baseURL, timeout: Self.timeout) { connection in
            for name in SyncRemoteContract.names {
                try await server.withLogOnFailure("the clause \(name)") {
                    let (remote, _) = try await enrolled(through: connection)
                    try await SyncRemoteContract.check(named: name)(remote)
                }
            }
        }
    }

    @Test("the real client and a DEV server keep the SyncRemote contract")
    func contract() async throws {
        try await onOwnThread {
            let server = try ServerProcess(["--phase", "dev"])
            try await Self.keepsContract(server)
            #expect(server.stop() == .exited(0))
        }
    }

    /// Tasks that hold the cooperative pool's threads until released.
    final class PoolHold: Sendable {
        let started = Atomic<Int>(0)
        let released = Atomic<Bool>(false)
    }

    @Test(
        "a request's body goes out while every thread of the cooperative pool is held: the client needs none of them to send it")
    func sendsWhilePoolIsHeld() async throws {
        try await onOwnThread {
            let server = try ServerProcess(["--phase", "dev"])
            // More blocked tasks than the pool has threads: each thread ends up held.
            let threads = ProcessInfo.processInfo.activeProcessorCount
            let hold = PoolHold()
            for _ in 0..<(threads + 2) {
                Task.detached {
                    hold.started.add(1, ordering: .relaxed)
                    while !hold.released.load(ordering: .relaxed) { usleep(5_000) }
                }
            }
            defer { hold.released.store(true, ordering: .relaxed) }
            // Without the fix the request waits for the pool (its deadline too: AsyncHTTPClient
            // cancels from a task there), so the hold ends by itself after two minutes and the
            // request is then seen to have finished only after it.
            Thread.detachNewThread {
                sleep(120)
                hold.released.store(true, ordering: .relaxed)
            }
            // The holders were queued first, so they take each thread as it frees up (other tests in
            // this process may hold some for a while); the wait only gives them that chance.
            let waitingSince = Date()
            while hold.started.load(ordering: .relaxed) < threads, Date().timeIntervalSince(waitingSince) < 10 { usleep(10_000) }
            // Its deadline is long for a loopback request and short beside the test's limit.
            try await SyncConnection.with(server: server.baseURL, timeout: .seconds(30)) { connection in
                let (remote, _) = try await Self.enrolled(through: connection)
                #expect(try await remote.pull(after: 0).head == 0)
                let heldThroughout = !hold.released.load(ordering: .relaxed)
                #expect(heldThroughout, "the requests went out only once the pool was free")
            }
            #expect(server.stop() == .exited(0))
        }
    }

    @Test(
        "an account opens once; a wrong auth key cannot enrol; devices list and revoke; a revoked device is told so, an unknown token is unauthorized"
    )
    func accountAndDevices() async throws {
        try await onOwnThread {
            let server = try ServerProcess(["--phase", "dev"])
            try await SyncConnection.with(server: server.baseURL, timeout: Self.timeout) { connection in
                try await Self.devices(through: connection)
            }
            #expect(server.stop() == .exited(0))
        }
    }

    static func devices(through connection: SyncConnection) async throws {
        let (laptop, opened) = try await Self.enrolled(through: connection)
        let account = connection.makeAccountRemote(key: opened.key, account: opened.id)
        await #expect(throws: SyncError.accountExists) { try await account.createAccount(invitation: nil) }
        await #expect(throws: SyncError.unauthorized) {
            try await connection.makeAccountRemote(key: SyncKey(bytes: Array(repeating: 1, count: 32))!, account: opened.id)
                .enrol(deviceName: "thief", deviceKey: [0xD0])
        }
        let desktopEnrolment = try await account.enrol(deviceName: "desktop", deviceKey: [0xD0])
        let desktop = connection.makeRemote(key: opened.key, account: opened.id, token: desktopEnrolment.token)
        let devices = try await laptop.devices()
        #expect(devices.map(\.name) == ["laptop", "desktop"] && devices.map(\.isThisDevice) == [true, false])
        #expect(devices.allSatisfy { $0.revokedAt == nil })
        try await laptop.revoke(desktopEnrolment.deviceID)
        await #expect(throws: SyncError.revoked) { try await desktop.pull(after: 0) }
        await #expect(throws: SyncError.unauthorized) {
            try await connection.makeRemote(key: opened.key, account: opened.id, token: Array(repeating: 3, count: 32)).pull(after: 0)
        }
        #expect(try await laptop.devices().last?.revokedAt != nil)
        await #expect(throws: SyncError.unknownDevice) { try await laptop.revoke(UUID()) }
    }

    @Test("a stopped server is offline; an untrusted certificate is refused; the configured CA is trusted")
    func transportFailures() async throws {
        try await onOwnThread {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-tls-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let mine = try ServerProcessTests.certificate("mine", in: folder)
            let other = try ServerProcessTests.certificate("other", in: folder)
            let server = try ServerProcess(["--phase", "dev", "--tls-certificate", mine.certificate, "--tls-key", mine.key])
            try await SyncConnection.with(server: server.baseURL, caFile: mine.certificate, timeout: Self.timeout) { trusting in
                let (remote, account) = try await Self.enrolled(through: trusting)
                #expect(try await remote.pull(after: 0).head == 0)
                try await SyncConnection.with(server: server.baseURL, caFile: other.certificate, timeout: Self.timeout) { wary in
                    await #expect(throws: SyncError.insecureConnection) {
                        try await wary.makeAccountRemote(key: account.key, account: account.id).enrol(deviceName: "x", deviceKey: [0xD0])
                    }
                }
                #expect(server.stop() == .exited(0))
                await #expect(throws: SyncError.offline) { try await remote.pull(after: 0) }
            }
        }
    }
}

/// The same contract through a server on PostgreSQL (the cluster `make test` starts).
@Suite(
    "The sync client against tokens-server on PostgreSQL",
    .enabled(
        if: ProcessInfo.processInfo.environment["PGHOST"] != nil || RequiredTests.all,
        "no PostgreSQL: PGHOST is not set (make test starts one with pg_virtualenv)"))
struct SyncClientOnPostgresTests {
    @Test("the real client and an ALPHA server on PostgreSQL keep the SyncRemote contract")
    func contract() async throws {
        let environment = ProcessInfo.processInfo.environment
        #expect(environment["PGHOST"] != nil, "TOKENS_REQUIRE_ALL_TESTS=1 says this run must have PostgreSQL")
        // A database of its own: no other test's accounts, entries or enrolment counts.
        try await TestDatabase.with(prefix: "tokens_contract") { database, url in
            #expect(url.contains("/\(database)?"))
            try await onOwnThread {
                let server = try ServerProcess(["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": url])
                try await SyncClientProcessTests.keepsContract(server)
                #expect(server.stop() == .exited(0))
            }
        }
    }
}
