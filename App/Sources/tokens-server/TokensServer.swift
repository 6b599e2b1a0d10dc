import AppConfiguration
import CommandLineKit
import Foundation
import Hummingbird
import Logging
import ServerComposition

/// `tokens-server`: the zero-knowledge sync server. Settings come from flags, then `TOKENS_*`
/// variables, then the config file's `server.*` keys, then defaults.
@main
enum TokensServer {
    static let spec = CommandSpec(
        "tokens-server",
        abstract: "Serve end-to-end-encrypted sync for Tokens (it stores only ciphertext).",
        discussion: """
            DEV keeps everything in memory; ALPHA uses a local staging database (\(ServerSettings.alphaDatabaseURL) unless configured); REAL needs a database URL. Prefer TOKENS_SERVER_DATABASE_URL or the config file to --database-url: other users can read a process's arguments. SIGTERM or SIGINT stops the server gracefully.
            """,
        subcommands: [serveSpec, AdminCommand.spec], defaultSubcommand: "serve",
        globalArguments: [
            .option("phase", help: "dev, alpha or real (TOKENS_PHASE)."),
            .option("config", value: "path", help: "The config file (default: $XDG_CONFIG_HOME/tokens/config.json)."),
            .option("database-url", value: "url", help: "The PostgreSQL URL (TOKENS_SERVER_DATABASE_URL)."),
            .option("log-level", help: "trace, debug, info, notice, warning, error or critical (TOKENS_LOG_LEVEL)."),
        ],
        version: versionLine)

    /// Serving, the command run when none is named (`tokens-server --port 8787`).
    static let serveSpec = CommandSpec(
        "serve", abstract: "Serve sync requests until SIGTERM or SIGINT (the command run when none is named).",
        arguments: [
            .option("host", help: "Where to listen (TOKENS_SERVER_HOST; default 127.0.0.1)."),
            .option("port", help: "The port (TOKENS_SERVER_PORT; default 8787; 0 picks a free one)."),
            .option("tls-certificate", value: "path", help: "Serve HTTPS with this PEM certificate chain (TOKENS_SERVER_TLS_CERTIFICATE)."),
            .option("tls-key", value: "path", help: "The certificate's PEM private key (TOKENS_SERVER_TLS_KEY)."),
            .option(
                "metrics-port",
                help: "Serve GET /metrics (Prometheus) on this port, apart from the API (TOKENS_SERVER_METRICS_PORT; default off)."),
            .option("metrics-host", help: "Where /metrics listens (TOKENS_SERVER_METRICS_HOST; default 127.0.0.1)."),
            .option(
                "signup",
                help:
                    "open, invitation or closed: who may open a sync account (TOKENS_SERVER_SIGNUP; default invitation off loopback or behind a proxy)."
            ),
            .option("log-format", help: "text or json: one JSON object per line (TOKENS_SERVER_LOG_FORMAT; default text)."),
            .option(
                "access-log",
                help: "on or off: a line per request at info: route, status, duration, client (TOKENS_SERVER_LOG_ACCESS; default on)."),
        ])

    /// What `--version` prints.
    static let versionLine = "tokens-server \(TokensVersion.release)"

    /// Setting keys by option: what the flags set, before the environment and the config file.
    static let flagKeys = [
        "phase": "phase", "log-level": "log.level", "host": "server.host", "port": "server.port",
        "database-url": "server.database.url", "tls-certificate": "server.tls.certificate", "tls-key": "server.tls.key",
        "metrics-port": "server.metrics.port", "metrics-host": "server.metrics.host", "log-format": "server.log.format",
        "access-log": "server.log.access", "signup": "server.signup",
    ]

    static func main() async {
        let parsed: ParsedArguments
        var command: [String] = []
        do {
            switch try CommandLineParser(root: spec).parse(Array(CommandLine.arguments.dropFirst())) {
            case .help(let path):
                print(HelpText.render(path, in: spec), terminator: "")
                return
            case .version:
                print(versionLine)
                return
            case .completionScript:
                throw UsageError("tokens-server has no completion scripts")
            case .run(let path, let arguments):
                parsed = arguments
                command = Array(path.dropFirst())
            }
        } catch {
            fail("\(error) (see tokens-server --help)", status: 64)
        }
        do {
            if command.first == AdminCommand.spec.name {
                let (loader, settings) = try await load(parsed)
                try await AdminCommand.run(Array(command.dropFirst()), parsed, settings: settings, loader: loader)
            } else {
                try await serve(parsed)
            }
        } catch let error as UsageError {
            fail("\(error) (see tokens-server \(command.joined(separator: " ")) --help)", status: 64)
        } catch {
            fail("\(error)", status: 1)
        }
    }

    /// The settings, from the flags given, the environment, the config file and the defaults.
    static func load(_ arguments: ParsedArguments) async throws -> (SettingsLoader, ServerSettings) {
        var flags: [String: String] = [:]
        for (option, key) in flagKeys { flags[key] = arguments.string(option) }
        let loader = SettingsLoader(
            flags: flags, configPath: arguments.string("config"), environment: ProcessInfo.processInfo.environment)
        return (loader, try await loader.loadServer())
    }

    static func serve(_ arguments: ParsedArguments) async throws {
        // A reload sent while the server starts has nothing to reload (the TLS pair is read
        // during start-up): ignored, not the default death, until ReloadService takes SIGHUP.
        signal(SIGHUP, SIG_IGN)
        let (loader, settings) = try await load(arguments)
        LogSetup.bootstrap(level: settings.logLevel.value, format: settings.logFormat.value)
        let logger = Logger(label: "tokens.server")
        for warning in UnknownConfigKeys.warnings(inFileAt: loader.configPath ?? loader.defaultConfigPath) {
            logger.warning("\(warning)")
        }
        let phase = settings.phase.value.rawValue.uppercased()
        let host = settings.host.value
        let scheme = settings.tlsCertificate == nil ? "http" : "https"
        let metricsHost = settings.metricsHost.value
        let application = try ServerComposer.makeApplication(
            settings: settings, logger: logger,
            running: { port in
                FileHandle.standardOutput.write(Data("tokens-server \(phase) listening on \(scheme)://\(host):\(port)\n".utf8))
                SystemdNotify.send("READY=1\nSTATUS=listening on \(scheme)://\(host):\(port)")
            },
            metricsRunning: { port in
                FileHandle.standardOutput.write(Data("tokens-server metrics on http://\(metricsHost):\(port)/metrics\n".utf8))
            })
        // Once the application is built (a mistake in the settings is the only line then). The
        // URL's source only: it may hold a password.
        logger.info(
            "starting",
            metadata: [
                "version": "\(TokensVersion.release)", "phase": "\(phase)", "signup": "\(settings.signup.value.rawValue)",
                "store": "\(settings.databaseURL.map { "postgres (url from \($0.source))" } ?? "memory")",
            ])
        if let url = settings.databaseURL?.value {
            // One connection first: a database it cannot use is one line within seconds, before
            // the pool would retry it for a minute; SIGTERM and SIGINT end the wait at once.
            logger.info("checking the database")
            try await StartupSignals.stoppingAtOnce { try await ServerComposer.checkDatabase(url: url) }
        }
        do {
            try await application.runService()
        } catch {
            throw AddressInUse.naming(error, address: "\(host):\(settings.port.value)", setting: "--port (server.port)")
        }
        logger.info("stopped")
    }

    /// One line on standard error, then the exit status.
    static func fail(_ message: String, status: Int32) -> Never {
        let line = message.split(separator: "\n").joined(separator: " ")
        FileHandle.standardError.write(Data("tokens-server: \(line)\n".utf8))
        exit(status)
    }
}
