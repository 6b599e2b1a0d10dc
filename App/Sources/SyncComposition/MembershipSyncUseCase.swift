import Domain
import Foundation

/// The sync use case for a vault whose membership is known only once it is unlocked (the
/// interactive screen): each sync reads the membership, connects to its server (one connection
/// kept while the server stays the same) and runs a `SyncRound`. No membership: `.notSetUp`.
public actor MembershipSyncUseCase: SyncUseCase {
    private let store: any SyncLocalStore & SyncMembershipStore
    private let round: SyncRound
    private let caFile: String?
    private let timeout: Duration
    private var connection: SyncConnection?
    private var closed = false

    public init(
        store: any SyncLocalStore & SyncMembershipStore, random: any RandomSource, caFile: String?, timeout: Duration = .seconds(30)
    ) {
        self.store = store
        round = SyncRound(store: store, random: random)
        self.caFile = caFile
        self.timeout = timeout
    }

    public func execute() async throws -> SyncReport {
        guard !closed, let membership = try await store.status().membership else { throw SyncError.notSetUp }
        if let connection, connection.server != membership.server {
            await connection.close()
            self.connection = nil
        }
        let connection = self.connection ?? SyncConnection(server: membership.server, caFile: caFile ?? membership.caFile, timeout: timeout)
        self.connection = connection
        return try await round.run(membership, over: connection)
    }

    /// Closes the connection; later syncs throw `.notSetUp`.
    public func close() async {
        closed = true
        await connection?.close()
        connection = nil
    }
}
