import AppConfiguration
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServerComposition

/// `tokens-server`: the zero-knowledge sync server. Settings come from flags, then `TOKENS_*`
/// variables, then the config file's `server.*` keys, then defaults.
@main
struct TokensServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens-server",
        abstract: "Serve end-to-end-encrypted sync for Tokens (it stores only ciphertext).",
        discussion: """
            DEV keeps everything in memory; ALPHA uses a local staging database (\(ServerSettings.alphaDatabaseURL) unless configured); REAL needs a database URL. Prefer TOKENS_SERVER_DATABASE_URL or the config file to --database-url: other users can read a process's arguments. SIGTERM or SIGINT stops the server gracefully.
            """)

    @Option(help: "dev, alpha or real (TOKENS_PHASE).") var phase: String?
    @Option(help: ArgumentHelp("The config file (default: $XDG_CONFIG_HOME/tokens/config.json).", valueName: "path")) var config: String?
    @Option(help: "Where to listen (TOKENS_SERVER_HOST; default 127.0.0.1).") var host: String?
    @Option(help: "The port (TOKENS_SERVER_PORT; default 8787; 0 picks a free one).") var port: String?
    @Option(help: ArgumentHelp("The PostgreSQL URL (TOKENS_SERVER_DATABASE_URL).", valueName: "url")) var databaseURL: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (TOKENS_LOG_LEVEL).") var logLevel: String?
    @Option(help: ArgumentHelp("Serve HTTPS with this PEM certificate chain (TOKENS_SERVER_TLS_CERTIFICATE).", valueName: "path"))
    var tlsCertificate: String?
    @Option(help: ArgumentHelp("The certificate's PEM private key (TOKENS_SERVER_TLS_KEY).", valueName: "path")) var tlsKey: String?

    func run() async throws {
        var flags: [String: String] = [:]
        flags["phase"] = phase
        flags["log.level"] = logLevel
        flags["server.host"] = host
        flags["server.port"] = port
        flags["server.database.url"] = databaseURL
        flags["server.tls.certificate"] = tlsCertificate
        flags["server.tls.key"] = tlsKey
        let settings = try await SettingsLoader(flags: flags, configPath: config, environment: ProcessInfo.processInfo.environment)
            .loadServer()
        LogSetup.bootstrap(level: settings.logLevel.value)
        let logger = Logger(label: "tokens.server")
        let phase = settings.phase.value.rawValue.uppercased()
        let host = settings.host.value
        let scheme = settings.tlsCertificate == nil ? "http" : "https"
        let application = try ServerComposer.makeApplication(settings: settings, logger: logger) { port in
            FileHandle.standardOutput.write(Data("tokens-server \(phase) listening on \(scheme)://\(host):\(port)\n".utf8))
        }
        // Once the application is built (a mistake in the settings is the only line then). The
        // URL's source only: it may hold a password.
        logger.info(
            "starting", metadata: ["phase": "\(phase)", "store": "\(settings.databaseURL.map { "postgres (url from \($0.source))" } ?? "memory")"])
        try await application.runService()
    }
}
