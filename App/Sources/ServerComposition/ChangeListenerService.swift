import ServiceLifecycle
import SyncServerData

/// Listens for the other instances' changes (PostgreSQL's LISTEN) until the server stops, so
/// that a push through any instance wakes the long-polls of all.
struct ChangeListenerService: Service {
    let notifier: PostgresChangeNotifier

    func run() async {
        await cancelWhenGracefulShutdown { await notifier.listen() }
    }
}
