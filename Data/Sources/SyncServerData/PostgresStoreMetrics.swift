import Metrics
import SyncServer

/// What the PostgreSQL store counts, through swift-metrics' API (nothing is recorded unless App
/// bootstraps a backend): its calls in flight (each holds or waits for one of the pool's
/// connections), and the calls that failed, by kind: the database unreachable, full or
/// read-only, a call past its deadline, or another error (a 500).
enum PostgresStoreMetrics {
    static let callsInFlight = Meter(label: "tokens.database.calls.in.flight")
    static let unreachable = failures("unreachable")
    static let full = failures("full")
    static let readOnly = failures("read_only")
    static let deadline = failures("deadline")
    static let other = failures("other")

    private static func failures(_ kind: String) -> Counter {
        Counter(label: "tokens.database.errors", dimensions: [("kind", kind)])
    }

    /// Counts a failed call by what it became: an outage, or an error as it is. The rules'
    /// refusals (a `SyncServerError` other than `unavailable`) are answers, not failures.
    static func failed(_ error: any Error) {
        switch error {
        case SyncServerError.unavailable(.unreachable): unreachable.increment()
        case SyncServerError.unavailable(.full): full.increment()
        case SyncServerError.unavailable(.readOnly): readOnly.increment()
        case is SyncServerError: break
        default: other.increment()
        }
    }
}
