import Foundation

/// The sync of a vault whose membership is known only once it is unlocked (the interactive
/// screen's background sync): each sync reads the membership, connects to its server (one
/// connection kept while the server stays the same, closed when it changes) and runs a round.
/// No membership: `.notSetUp`. The CA file given here wins over the one the membership remembers.
public actor MembershipSyncUseCase: SyncUseCase {
    private let store: any SyncMembershipStore
    private let round: SyncRoundUseCase
    private let connector: any SyncServerConnector
    private let caFile: String?
    private var connection: (any SyncServerConnection)?
    private var closed = false

    public init(store: any SyncMembershipStore, round: SyncRoundUseCase, connector: any SyncServerConnector, caFile: String?) {
        self.store = store
        self.round = round
        self.connector = connector
        self.caFile = caFile
    }

    public func execute() async throws -> SyncReport {
        guard !closed, let membership = try await store.membership() else { throw SyncError.notSetUp }
        if let connection, connection.server != membership.server {
            self.connection = nil
            await connection.close()
        }
        let connection = self.connection ?? connector.connect(to: membership.server, caFile: caFile ?? membership.caFile)
        self.connection = connection
        return try await round.run(membership, over: connection)
    }

    /// Closes the connection; later syncs throw `.notSetUp`.
    public func close() async {
        closed = true
        let connection = self.connection
        self.connection = nil
        await connection?.close()
    }
}
