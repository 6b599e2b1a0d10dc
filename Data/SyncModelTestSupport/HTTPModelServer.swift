import Domain
import DomainTestSupport
import Foundation
import SyncRemoteData
import Synchronization

/// The real `tokens-server`'s process and database, as the test that runs them provides them.
public protocol ModelServerHost: Sendable {
    /// The server's URL now (e.g. http://127.0.0.1:PORT).
    var url: URL { get }
    /// Keeps a copy of the server's database.
    func backup() async throws
    /// Puts the last copy back (the server restarted on it); false, and nothing done, before any backup.
    func restore() async throws -> Bool
}

/// The real server over HTTP, through the client `tokens sync` uses (sealed entries, the wire
/// DTOs, the typed errors), one server and sync account per history, whose devices enrol with the sync
/// code's auth key. A device of its own (never a machine's) revokes devices and reads
/// everything the server holds. A real server cannot be made dishonest: no hostile hooks.
public final class HTTPModelServer: ModelServer {
    public let code: SyncCode
    public var hostile: InMemorySyncRemote? { nil }
    private let host: any ModelServerHost
    private let http: SyncHTTPClient
    private let observer: SyncEnrolment
    /// The devices revoked, and those that were when the last backup was taken (a restored
    /// database forgets the revocations made since).
    private let state = Mutex<(revoked: Set<UUID>, atBackup: Set<UUID>)>(([], []))

    private init(code: SyncCode, host: any ModelServerHost, http: SyncHTTPClient, observer: SyncEnrolment) {
        self.code = code
        self.host = host
        self.http = http
        self.observer = observer
    }

    /// Opens the model's sync account on the new server `host` runs, enrols the server's own
    /// reading device, and runs `body` with it; the HTTP client closes afterwards.
    public static func with<T: Sendable>(host: any ModelServerHost, _ body: (HTTPModelServer) async throws -> T) async throws -> T {
        let http = SyncHTTPClient(timeout: .seconds(30))
        do {
            let accounts = RemoteSyncAccountDataSource.make(server: api(host), keys: keys(ModelCheck.code), transport: http.transport)
            try await accounts.createAccount(invitation: nil)
            let observer = try await accounts.enrol(deviceName: "model observer", deviceKey: Array(repeating: 0xAB, count: 32))
            let result = try await body(HTTPModelServer(code: ModelCheck.code, host: host, http: http, observer: observer))
            await http.shutdown()
            return result
        } catch {
            await http.shutdown()
            throw error
        }
    }

    private static func api(_ host: any ModelServerHost) -> URL { host.url.appendingPathComponent("v1") }
    private static func keys(_ code: SyncCode) -> SyncKeys { SyncKeys(key: code.key, account: code.account) }

    public func enrol(machine: Int) async throws -> SyncEnrolment {
        try await Self.patiently { () async throws(SyncError) in
            try await RemoteSyncAccountDataSource.make(server: Self.api(host), keys: Self.keys(code), transport: http.transport)
                .enrol(deviceName: "M\(machine)", deviceKey: Array(repeating: UInt8(machine + 1), count: 32))
        }
    }

    /// The model's own calls (not a machine's sync, which takes a late answer as offline): tried
    /// up to 3 times when the answer is late or the connection fails, as on a busy machine.
    private static func patiently<T>(_ call: () async throws(SyncError) -> T) async throws -> T {
        var tries = 0
        while true {
            tries += 1
            do { return try await call() } catch {
                guard tries < 3, error == .timedOut || error == .offline else { throw error }
            }
        }
    }

    /// Revoked by the server's own device; a device the server no longer knows (enrolled after
    /// the backup it was restored from) is gone already.
    public func revoke(_ device: UUID) async throws {
        do {
            try await Self.patiently { () async throws(SyncError) in try await remote(observer).revoke(device) }
        } catch SyncError.unknownDevice {}
        _ = state.withLock { $0.revoked.insert(device) }
    }

    public func isRevoked(_ device: UUID) -> Bool { state.withLock { $0.revoked.contains(device) } }

    public func remote(for enrolment: SyncEnrolment) -> any SyncRemote { remote(enrolment) }

    private func remote(_ enrolment: SyncEnrolment) -> RemoteSyncDataSource {
        RemoteSyncDataSource.make(server: Self.api(host), token: enrolment.token, keys: Self.keys(code), transport: http.transport)
    }

    /// Every page from the start, as the server's own device reads them.
    public func stored() async throws -> [RemoteEntry] {
        var entries: [RemoteEntry] = []
        var cursor: Int64 = 0
        while true {
            let page = try await Self.patiently { () async throws(SyncError) in try await remote(observer).pull(after: cursor) }
            entries += page.entries
            cursor = max(cursor, (page.entries.map(\.sequence) + page.unreadable.map(\.sequence)).max() ?? cursor)
            if !page.hasMore { return entries }
        }
    }

    public func backup() async throws {
        try await host.backup()
        state.withLock { $0.atBackup = $0.revoked }
    }

    public func restore() async throws -> Bool {
        guard try await host.restore() else { return false }
        state.withLock { $0.revoked = $0.atBackup }
        return true
    }
}
