import Domain
import Foundation
import SyncRemoteData

/// The sync client's graph for one server: one HTTP client (AsyncHTTPClient, each request
/// bounded by `timeout`, the server's certificate checked against the system's roots or only
/// the CA certificates of `caFile`) and the remotes over it, as Domain's ports. Close it when done.
public final class SyncConnection: SyncServerConnection {
    private let http: SyncHTTPClient
    /// The server's URL, and the API's base URL (the server's with `/v1`).
    public let server: URL
    public let api: URL
    /// This machine's clock, which the server's time in its answers is measured against (nil:
    /// not measured).
    private let clock: (any WallClock)?

    public init(server: URL, caFile: String? = nil, timeout: Duration = .seconds(30), clock: (any WallClock)? = nil) {
        http = SyncHTTPClient(timeout: timeout, caFile: caFile)
        self.server = server
        self.clock = clock
        api = server.appendingPathComponent("v1")
    }

    /// The sync account of `key` and `account`, before this machine has a token.
    public func makeAccountRemote(key: SyncKey, account: UUID) -> any SyncAccountRemote {
        RemoteSyncAccountDataSource.make(server: api, keys: SyncKeys(key: key, account: account), transport: http.transport)
    }

    /// The account's entries, devices and sync key under `key` (version 1), as the enrolled
    /// device whose token is `token`.
    public func makeRemote(key: SyncKey, account: UUID, token: [UInt8]) -> any SyncRemote & SyncDevicesRemote & SyncKeysRemote
        & SyncHistoryRemote
    {
        RemoteSyncDataSource.make(
            server: api, token: token, keys: SyncKeys(key: key, account: account), transport: http.transport, clock: clock)
    }

    /// The entries, devices and sync key of `membership`'s account, as its enrolled device:
    /// entries sealed under its current key, opened under the key of their version.
    public func makeRemote(for membership: SyncMembership) -> any SyncRemote & SyncDevicesRemote & SyncKeysRemote & SyncHistoryRemote {
        let account = membership.code.account
        return RemoteSyncDataSource.make(
            server: api, token: membership.enrolment.token,
            keys: SyncKeys(key: membership.code.key, account: account, version: membership.keys.version),
            earlier: membership.keys.earlier.map { SyncKeys(key: $0.value, account: account, version: $0.key) }, transport: http.transport,
            clock: clock)
    }

    public func remote(for membership: SyncMembership) -> any SyncRemote & SyncKeysRemote & SyncDevicesRemote {
        makeRemote(for: membership)
    }

    /// The server's liveness answer (no token), timed on `clock`.
    public func makeHealth(clock: any WallClock) -> any SyncServerHealth {
        RemoteSyncHealthDataSource.make(server: api, transport: http.transport, clock: clock)
    }

    /// Closes the connections; no request may follow.
    public func close() async { await http.shutdown() }

    /// Runs `body` with a connection to `server` and closes it afterwards, whatever happens
    /// (an HTTP client dropped without closing it is a programming error to AsyncHTTPClient).
    @discardableResult
    public static func with<T>(
        server: URL, caFile: String? = nil, timeout: Duration = .seconds(30), clock: (any WallClock)? = nil,
        _ body: (SyncConnection) async throws -> T
    ) async throws -> T {
        let connection = SyncConnection(server: server, caFile: caFile, timeout: timeout, clock: clock)
        do {
            let result = try await body(connection)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }
}
