/// How `tokens-server` writes its log lines to standard error: text for a terminal, or one JSON
/// object per line for a log collector.
public enum LogFormat: String, CaseIterable, Sendable, Codable {
    case text, json
}
