import Logging

/// Sends swift-log output to standard error at the configured level. Log lines never carry
/// secrets: Domain's Secret redacts itself, and callers log ids and counts, not account data.
package enum LogSetup {
    public static func bootstrap(level: LogLevel, format: LogFormat = .text) {
        let level = Logger.Level(rawValue: level.rawValue) ?? .warning
        LoggingSystem.bootstrap { label in
            switch format {
            case .json:
                return JSONLogHandler(label: label, level: level)
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }
}
