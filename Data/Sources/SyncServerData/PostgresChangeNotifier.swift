import Foundation
import Logging
import PostgresNIO
import SyncServer

/// The change notifier of server instances that share one PostgreSQL: a push wakes this
/// instance's long-polls of the account at once (`LocalChangeNotifier`) and the other instances'
/// through PostgreSQL's LISTEN/NOTIFY (the push's transaction notifies), on one channel whose
/// payload is the account's id (never anything secret). Where notifications are lost (the
/// listening connection dropped, an engine without them) the waiters' head checks, every
/// `SyncLimits.headCheckInterval`, still see the change.
public final class PostgresChangeNotifier: ChangeNotifier {
    /// The channel every instance listens on.
    public static let channel = "tokens_sync_changed"

    private let primary: PostgresPrimary
    private var client: PostgresClient { primary.client }
    private let local: LocalChangeNotifier
    private let logger: Logger

    /// A notifier on one client that the caller runs.
    public convenience init(client: PostgresClient, local: LocalChangeNotifier = LocalChangeNotifier(), logger: Logger) {
        self.init(primary: PostgresPrimary(fixed: client, logger: logger), local: local, logger: logger)
    }

    /// A notifier on the client of the host that takes writes (LISTEN moves with it).
    public init(primary: PostgresPrimary, local: LocalChangeNotifier = LocalChangeNotifier(), logger: Logger) {
        self.primary = primary
        self.local = local
        self.logger = logger
    }

    /// Wakes this instance's waiters at once. The other instances heard of the push from the
    /// push itself: its transaction sends the notification (`PostgresStatements.writeEntries`),
    /// which PostgreSQL delivers at commit, so no waiter anywhere reads before the change is there.
    public func changed(_ account: SyncAccountID) async {
        await local.changed(account)
    }

    /// How many requests of this instance are waiting (for tests and metrics).
    public var waiting: Int {
        get async { await local.waiting }
    }

    public func wait(for account: SyncAccountID, atMost seconds: Double) async {
        await local.wait(for: account, atMost: seconds)
    }

    /// Listens for the other instances' notifications until the task is cancelled, on a
    /// connection of the pool; when that connection is lost, listens again after `retryDelay`.
    /// `listening` is called each time the LISTEN is in place (tests wait for it).
    public func listen(retryDelay: Duration = .seconds(1), listening: @Sendable () async -> Void = {}) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        logger.debug("listening for changes", metadata: ["channel": "\(Self.channel)"])
                        await listening()
                        for try await notification in notifications {
                            guard let id = UUID(uuidString: notification.payload) else { continue }
                            await local.changed(SyncAccountID(id))
                        }
                    }
                }
            } catch {
                guard !Task.isCancelled else { return }
                logger.warning("change notifications lost; listening again", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            }
            try? await Task.sleep(for: retryDelay)
        }
    }
}
