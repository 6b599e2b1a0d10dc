import Domain

/// A fault-injecting transport between one client and `InMemorySyncRemote`, seeded: a call may
/// fail before it reaches the server (offline), and a push may be applied and its answer lost
/// (timed out), as a dropped connection does. `faults = false` lets final rounds go through.
public actor FaultyRemote: SyncRemote {
    private let server: InMemorySyncRemote
    private var generator: SplitMix
    public private(set) var faults = true
    /// Calls that failed, and pushes whose answer was lost after the server applied them.
    public private(set) var failed = 0
    public private(set) var lostAnswers = 0

    public init(_ server: InMemorySyncRemote, seed: UInt64) {
        self.server = server
        generator = SplitMix(seed: seed)
    }

    public func setFaults(_ on: Bool) { faults = on }

    public func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
        if faults, Int.random(in: 0..<8, using: &generator) == 0 {
            failed += 1
            throw .offline
        }
        return try await server.pull(after: cursor)
    }

    public func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
        guard faults else { return try await server.push(changes) }
        switch Int.random(in: 0..<8, using: &generator) {
        case 0:
            failed += 1
            throw .offline
        case 1:
            _ = try await server.push(changes)
            lostAnswers += 1
            throw .timedOut
        default:
            return try await server.push(changes)
        }
    }
}
