/// The phase a run of Tokens is in: DEV (in-memory demo data), ALPHA (a trial vault with more
/// logging) or REAL (the user's vault).
public enum Phase: String, CaseIterable, Sendable, Codable {
    case dev, alpha, real

    /// Parses "dev", "DEV", "Alpha"…
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// The phase when nothing chooses one. DEV until the vault lands.
    public static let `default` = Phase.dev

    /// How much a phase logs unless configured otherwise.
    public var defaultLogLevel: LogLevel {
        switch self {
        case .dev: .info
        case .alpha: .debug
        case .real: .warning
        }
    }
}
