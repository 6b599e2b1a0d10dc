/// Everything App reads from configuration, each value with its source.
public struct AppSettings: Sendable, Equatable {
    public let phase: Sourced<Phase>
    public let logLevel: Sourced<LogLevel>
    /// The config file consulted, and whether it exists.
    public let configFile: String
    public let configFileExists: Bool

    public init(phase: Sourced<Phase>, logLevel: Sourced<LogLevel>, configFile: String, configFileExists: Bool) {
        self.phase = phase
        self.logLevel = logLevel
        self.configFile = configFile
        self.configFileExists = configFileExists
    }
}
