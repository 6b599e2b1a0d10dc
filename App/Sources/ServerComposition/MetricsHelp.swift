/// The `# HELP` line of each metric family: swift-metrics has no help text, and Prometheus's
/// tools want one for every family (`promtool check metrics`), so the endpoint adds it.
enum MetricsHelp {
    static let texts = [
        "http_server_request_duration_seconds": "Time to answer a request, by route template, method and status.",
        "hb_requests_total": "Requests answered, by route template, method and status.",
        "hb_request_errors_total": "Requests that ended in an error, by route template, method and status.",
        "http_server_active_requests": "Requests being answered now, by method.",
        "tokens_sync_push_changes_total": "Changes pushed, by outcome (applied, or conflict: the client merges and pushes again).",
        "tokens_sync_refusals_total": "Requests the sync rules refused, by reason (rate limits, quota, auth, database outages).",
        "tokens_sync_pulls_waiting": "Pulls waiting now for a change (long polls).",
        "tokens_database_calls_in_flight": "Store calls now holding or waiting for one of the pool's database connections.",
        "tokens_database_errors_total": "Store calls that failed, by kind (unreachable, full, read_only, deadline, other).",
    ]

    /// Prometheus's text with a `# HELP` line before each family's `# TYPE` line.
    static func adding(to text: String) -> String {
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), let name = line.split(separator: " ").dropFirst(2).first {
                lines.append("# HELP \(name) \(texts[String(name)] ?? "Recorded through swift-metrics.")")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
