import Logging

/// Sends swift-log output to standard error at the configured level. Log lines never carry
/// secrets: Domain's Secret redacts itself, and callers log ids and counts, not account data.
package enum LogSetup {
    public static func bootstrap(level: LogLevel) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = Logger.Level(rawValue: level.rawValue) ?? .warning
            return handler
        }
    }
}
