/// How much Tokens logs to standard error.
public enum LogLevel: String, CaseIterable, Sendable, Codable {
    case trace, debug, info, notice, warning, error, critical
}
