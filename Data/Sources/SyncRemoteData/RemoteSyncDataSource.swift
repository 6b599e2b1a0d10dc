import Domain
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The sync server as Domain's `SyncRemote`, through the client generated from the API document:
/// records are encrypted before they leave and decrypted when they come back (SyncEntryCipher),
/// the wire DTOs are mapped to domain types, and every answer and failure to a `SyncError`.
/// Records are sealed under the current sync key and opened under the key of their version; a
/// pull that finds the account's key newer than this machine's stops before it reads or sends
/// anything (`.keyChanged`), and one that finds it older (a server restored from a backup) as well
/// (`.serverKeyBehind`: the replacement is given back first).
public struct RemoteSyncDataSource: SyncRemote {
    let api: any APIProtocol
    let keys: SyncKeys
    /// The earlier keys, by version, for entries not yet sealed again.
    private let earlier: [Int: SyncKeys]
    /// This machine's clock, on which each pull is timed to read the server's time in its
    /// answer (nil: not read).
    private let clock: (any WallClock)?

    init(api: any APIProtocol, keys: SyncKeys, earlier: [SyncKeys] = [], clock: (any WallClock)? = nil) {
        self.api = api
        self.keys = keys
        self.earlier = Dictionary(earlier.map { ($0.version, $0) }) { first, _ in first }
        self.clock = clock
    }

    /// The remote at `server` (its base URL, e.g. https://sync.example/v1), as the device whose
    /// bearer token is `token`, over `transport` (App chooses it); `earlier` opens older entries.
    /// `clock`: this machine's, which each page's `serverTime` is measured against.
    public static func make(
        server: URL, token: [UInt8], keys: SyncKeys, earlier: [SyncKeys] = [], transport: any ClientTransport,
        clock: (any WallClock)? = nil
    ) -> RemoteSyncDataSource {
        RemoteSyncDataSource(
            api: Client(serverURL: server, configuration: .wire, transport: transport, middlewares: [BearerToken(token: token)]),
            keys: keys, earlier: earlier, clock: clock)
    }

    public func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
        let output: Operations.PullEntries.Output
        let sent = clock?.now()
        do { output = try await api.pullEntries(query: .init(after: cursor)) } catch { throw Self.transportError(error) }
        let received = clock?.now()
        switch output {
        case .ok(let ok):
            guard case .json(let page) = ok.body else { throw .incompatible }
            if let version = ok.headers.tokensKeyVersion.map(Int.init) {
                if version > keys.version { throw .keyChanged }
                // Older than this machine's: restored from before a replacement, given back first.
                if version < keys.version { throw .serverKeyBehind }
            }
            // One entry that does not open stops nothing: it is listed apart, the rest is read.
            var entries: [RemoteEntry] = []
            var unreadable: [UnreadableEntry] = []
            for entry in page.entries {
                do {
                    entries.append(try open(entry))
                } catch {
                    guard let id = UUID(uuidString: entry.id) else { throw .incompatible }
                    unreadable.append(UnreadableEntry(id: id, sequence: entry.sequence))
                }
            }
            var serverTime: ServerTimeSample?
            if let sent, let received { serverTime = ServerTimeSample(sent: sent, received: received, serverDate: page.serverTime) }
            return RemotePage(
                entries: entries, unreadable: unreadable, head: page.head, hasMore: page.hasMore, generation: ok.headers.tokensGeneration,
                serverTime: serverTime)
        case .badRequest: throw .incompatible
        case .unauthorized(let problem): throw Self.refusal(problem)
        case .gone: throw .cursorExpired
        case .tooManyRequests(let problem): throw Self.rateLimited(problem)
        case .default(let status, _): throw Self.error(status: status)
        }
    }

    public func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
        let body: [Components.Schemas.Change]
        do { body = try changes.map(sealed) } catch { throw .corruptEntry(id: "") }
        let output: Operations.PushEntries.Output
        do { output = try await api.pushEntries(body: .json(.init(changes: body))) } catch { throw Self.transportError(error) }
        switch output {
        case .ok(let ok):
            guard case .json(let response) = ok.body, response.results.count == changes.count else { throw .incompatible }
            return try zip(changes, response.results).map { change, result throws(SyncError) in
                switch (result.status, result.sequence, result.current) {
                case (.applied, let sequence?, _): return .applied(sequence: sequence)
                case (.conflict, _, let current?):
                    guard let entry = try? open(current) else { return .conflictUnreadable(sequence: current.sequence) }
                    // A retry after a lost answer: the server compares bytes, and each push seals
                    // with a new nonce, so the record it already holds comes back as a conflict.
                    if entry.record == change.record, entry.version == change.version { return .applied(sequence: entry.sequence) }
                    return .conflict(current: entry)
                default: throw .incompatible
                }
            }
        case .contentTooLarge(let problem): throw Self.tooLarge(problem)
        case .badRequest: throw .incompatible
        case .unauthorized(let problem): throw Self.refusal(problem)
        case .tooManyRequests(let problem): throw Self.rateLimited(problem)
        case .default(let status, _): throw Self.error(status: status)
        }
    }

    /// The problem type of a push past the account's storage quota (see the document's Problem).
    static let quotaExceededType = "urn:tokens:sync:quota-exceeded"

    /// A 413: the account's storage quota, or a push this client should never have made.
    static func tooLarge(_ problem: Components.Responses.Problem) -> SyncError {
        guard case .applicationProblemJson(let document) = problem.body, document._type == quotaExceededType else { return .incompatible }
        return .quotaExceeded
    }

    /// A server entry, decrypted.
    func open(_ entry: Components.Schemas.Entry) throws(SyncError) -> RemoteEntry {
        guard let id = UUID(text: entry.id), let nonce = Data(base64Encoded: entry.nonce),
            let ciphertext = Data(base64Encoded: entry.ciphertext)
        else { throw .corruptEntry(id: entry.id) }
        let sealedWith = Int(entry.keyVersion) == keys.version ? keys : earlier[Int(entry.keyVersion)]
        guard let sealedWith else { throw .corruptEntry(id: entry.id) }
        let (record, version) = try SyncEntryCipher.open(
            entry: id, keyVersion: sealedWith.version, nonce: Array(nonce), ciphertext: Array(ciphertext), keys: sealedWith)
        return RemoteEntry(sequence: entry.sequence, record: record, version: version)
    }

    private func sealed(_ change: RemoteChange) throws -> Components.Schemas.Change {
        let box = try SyncEntryCipher.seal(change.record, version: change.version, keys: keys)
        return Components.Schemas.Change(
            id: change.record.id.text.lowercased(), basedOn: change.basedOn, deleted: change.record.isDeleted.value,
            keyVersion: Int32(keys.version), nonce: Data(box.nonce).base64EncodedString(),
            ciphertext: Data(box.ciphertext).base64EncodedString())
    }

    /// The problem type of a revoked device's 401 (see the document's Problem).
    static let deviceRevokedType = "urn:tokens:sync:device-revoked"

    /// A 401: this device was revoked (the server says so to the token's holder), or the token
    /// is unknown.
    static func refusal(_ problem: Components.Responses.Problem) -> SyncError {
        guard case .applicationProblemJson(let document) = problem.body, document._type == deviceRevokedType else { return .unauthorized }
        return .revoked
    }

    /// When the server says 429 without saying how long.
    static let defaultRetryAfter = 60

    /// A 429: wait as long as the server's Retry-After says (an hour for the enrolment limit).
    static func rateLimited(_ problem: Components.Responses.Problem) -> SyncError {
        .rateLimited(retryAfterSeconds: problem.headers.retryAfter.map { Int(max(0, $0)) } ?? defaultRetryAfter)
    }

    /// An undocumented status: the server failing (5xx), or one this client does not speak.
    static func error(status: Int) -> SyncError {
        switch status {
        case 401: .unauthorized
        case 410: .cursorExpired
        case 429: .rateLimited(retryAfterSeconds: defaultRetryAfter)
        case 503: .unavailable
        case 500...599: .server
        default: .incompatible
        }
    }

    /// A request that got no answer: the transport's failure, as the user sees it.
    static func transportError(_ error: any Error) -> SyncError {
        let cause = (error as? ClientError)?.underlyingError ?? error
        // An error of no known type is taken as no connection: the changes wait for the next sync.
        return SyncHTTPClient.classify(cause) ?? .offline
    }
}

/// Adds the device's bearer token to every request (never logged).
struct BearerToken: ClientMiddleware {
    let token: [UInt8]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer " + Data(token).base64EncodedString()
        return try await next(request, body, baseURL)
    }
}
