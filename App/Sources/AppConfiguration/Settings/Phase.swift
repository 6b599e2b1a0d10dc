/// The phase a run of Tokens is in: DEV (in-memory demo data), ALPHA (a trial vault with more
/// logging) or REAL (the user's vault).
public enum Phase: String, CaseIterable, Sendable, Codable {
    case dev, alpha, real

    /// Parses "dev", "DEV", "Alpha"…
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// The phase when nothing chooses one: the user's real vault. (`make run` asks for DEV.)
    public static let `default` = Phase.real

    /// Whether the phase keeps its accounts in an encrypted vault.
    public var usesVault: Bool { self != .dev }

    /// The folder, under the XDG data home, that holds the phase's vault: REAL and ALPHA never share one.
    public var dataFolderName: String? {
        switch self {
        case .dev: nil
        case .alpha: "tokens-alpha"
        case .real: "tokens"
        }
    }

    /// How much a phase logs unless configured otherwise.
    public var defaultLogLevel: LogLevel {
        switch self {
        case .dev: .info
        case .alpha: .debug
        case .real: .warning
        }
    }
}
