/// A problem with flags, environment or config file, worded for the person who set it.
package enum ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidValue(key: String, value: String, source: SettingSource, expected: String)
    case wrongType(key: String, source: SettingSource, expected: String)
    case missingConfigFile(String)
    case unreadableConfigFile(path: String, reason: String)
    /// The server in REAL with no database to keep accounts in.
    case missingServerDatabase
    /// A TLS certificate without its key, or the reverse.
    case incompleteTLS

    public var description: String {
        switch self {
        case .invalidValue(let key, let value, let source, let expected):
            "invalid \(key) '\(value)' (from \(source)): expected \(expected)"
        case .wrongType(let key, let source, let expected):
            "invalid \(key) (from \(source)): expected \(expected)"
        case .missingConfigFile(let path): "config file not found: \(path)"
        case .unreadableConfigFile(let path, let reason): "cannot read config file \(path): \(reason)"
        case .missingServerDatabase:
            "the REAL phase needs a PostgreSQL database: give --database-url, TOKENS_SERVER_DATABASE_URL or server.database.url"
        case .incompleteTLS: "TLS needs both a certificate and its key (--tls-certificate and --tls-key)"
        }
    }
}
