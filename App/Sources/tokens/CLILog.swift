import Logging

/// The command line's logger (swift-log, to standard error at the configured level). It logs
/// ids, counts and formats, never an issuer, account name, note, code or secret.
enum CLILog {
    static let logger = Logger(label: "tokens.cli")
}
