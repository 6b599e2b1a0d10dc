import ServiceLifecycle
import SyncServerData

/// Runs the database's pooled client (and, with several hosts, follows the primary) until the
/// server stops; stopped after the listener and the HTTP server, as the services' order says.
struct DatabaseService: Service {
    let primary: PostgresPrimary

    func run() async {
        await cancelWhenGracefulShutdown { await primary.run() }
    }
}
