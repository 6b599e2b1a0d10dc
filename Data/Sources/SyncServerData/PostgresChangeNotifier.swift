import Foundation
import Logging
import PostgresNIO
import SyncServer

/// The change notifier of server instances that share one PostgreSQL: a push wakes this
/// instance's long-polls of the account at once (`LocalChangeNotifier`) and the other instances'
/// through PostgreSQL's LISTEN/NOTIFY, on one channel whose payload is the account's id (never
/// anything secret). Where notifications are lost (the listening connection dropped, an engine
/// without them) the waiters' head checks, every `SyncLimits.headCheckInterval`, still see the
/// change.
public final class PostgresChangeNotifier: ChangeNotifier {
    /// The channel every instance listens on.
    public static let channel = "tokens_sync_changed"

    private let client: PostgresClient
    private let local: LocalChangeNotifier
    private let logger: Logger

    public init(client: PostgresClient, local: LocalChangeNotifier = LocalChangeNotifier(), logger: Logger) {
        self.client = client
        self.local = local
        self.logger = logger
    }

    /// Wakes this instance's waiters, then tells the others (this one hears its own notification
    /// too, and finds nobody left to wake). A notification that cannot be sent is logged: the
    /// others' head checks will see the change.
    public func changed(_ account: SyncAccountID) async {
        await local.changed(account)
        do {
            try await client.query(
                PostgresStatements.query(PostgresStatements.notify, Self.channel, account.uuid.uuidString),
                logger: PostgresStatements.queryLogger)
        } catch {
            logger.warning(
                "change notification not sent; other instances see it at their next head check",
                metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
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
