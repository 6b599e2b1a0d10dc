import Metrics
import SyncServer

/// What the HTTP interface counts beyond requests (Hummingbird's `MetricsMiddleware` counts
/// those, by route template and status): changes pushed by outcome, the rules' refusals by
/// reason, and pulls waiting for a change. Through swift-metrics' API, so nothing is recorded
/// unless App bootstraps a backend. No label ever holds an account, a device or a token.
enum SyncServerMetrics {
    static let applied = Counter(label: "tokens.sync.push.changes", dimensions: [("outcome", "applied")])
    static let conflicts = Counter(label: "tokens.sync.push.changes", dimensions: [("outcome", "conflict")])
    static let pullsWaiting = Meter(label: "tokens.sync.pulls.waiting")

    /// Counts one push's outcome.
    static func record(_ results: [PushResult]) {
        let conflicting = results.count { if case .conflict = $0 { true } else { false } }
        if results.count > conflicting { applied.increment(by: Int64(results.count - conflicting)) }
        if conflicting > 0 { conflicts.increment(by: Int64(conflicting)) }
    }

    /// Counts a refusal of the rules, by its kind (a fixed set of words).
    static func refused(_ error: SyncServerError) {
        Counter(label: "tokens.sync.refusals", dimensions: [("reason", reason(error))]).increment()
    }

    static func reason(_ error: SyncServerError) -> String {
        switch error {
        case .unauthorized: "unauthorized"
        case .deviceRevoked: "device_revoked"
        case .deviceNotFound: "device_not_found"
        case .accountExists: "account_exists"
        case .invitationRequired: "invitation_required"
        case .invitationRefused: "invitation_refused"
        case .signupClosed: "signup_closed"
        case .tooManyDevices: "too_many_devices"
        case .rateLimited: "enrolments_rate_limited"
        case .tooManyAccounts: "accounts_rate_limited"
        case .tooManyWaiting: "too_many_waiting_pulls"
        case .cursorExpired: "cursor_expired"
        case .tooManyChanges: "too_many_changes"
        case .payloadTooLarge: "payload_too_large"
        case .quotaExceeded: "quota_exceeded"
        case .invalid: "invalid"
        case .keyConflict: "key_conflict"
        case .unavailable(.unreachable): "database_unreachable"
        case .unavailable(.full): "database_full"
        case .unavailable(.readOnly): "database_read_only"
        }
    }
}
