import Foundation

/// What `tokens-server` reads from configuration (flag > `TOKENS_*` environment > the config
/// file's `server.*` keys > defaults), each value with its source.
package struct ServerSettings: Sendable, Equatable {
    public let phase: Sourced<Phase>
    public let logLevel: Sourced<LogLevel>
    /// Where to listen: loopback unless configured (put a TLS proxy in front, or give a
    /// certificate and key).
    public let host: Sourced<String>
    public let port: Sourced<Int>
    /// The PostgreSQL database of ALPHA and REAL; nil for DEV (in memory). Never logged: it may
    /// hold a password.
    public let databaseURL: Sourced<String>?
    public let tlsCertificate: Sourced<String>?
    public let tlsKey: Sourced<String>?
    /// The longest a pull may wait for a change (seconds, 0 to 30; 0 turns long-polls off).
    public let pullWait: Sourced<Int>
    /// Reverse proxies in front of the server, by address: a request from one of them is counted
    /// (for the enrolment limit) as coming from the client its `X-Forwarded-For` names.
    public let trustedProxies: Sourced<[String]>
    /// Connections open at once, in all (lowered at start to what the descriptor limit allows).
    public let maxConnections: Sourced<Int>
    /// Connections open at once from one address (trusted proxies are not counted).
    public let maxConnectionsPerAddress: Sourced<Int>
    /// Seconds a new connection may take to send a whole request (a later request its body).
    public let requestTimeout: Sourced<Int>
    /// Seconds a kept-alive connection may idle between requests.
    public let idleTimeout: Sourced<Int>
    /// Sync accounts one address may open in an hour, and all addresses together.
    public let accountsPerAddress: Sourced<Int>
    public let accountsPerHour: Sourced<Int>
    /// Enrolment attempts in an hour for one sync account, and from one address.
    public let enrolmentsPerAccount: Sourced<Int>
    public let enrolmentsPerAddress: Sourced<Int>
    /// Pulls one device may keep waiting at once (more get 429), and pulls waiting in all (more
    /// answer at once).
    public let waitingPullsPerDevice: Sourced<Int>
    public let waitingPulls: Sourced<Int>
    /// MiB of request bodies the server reads at once, in all (past it, 503).
    public let bodiesInFlightMiB: Sourced<Int>
    /// What one sync account may hold: live entries, and MiB of ciphertext.
    public let quotaEntries: Sourced<Int>
    public let quotaMiB: Sourced<Int>
    /// How much history each sync account keeps (for `tokens history` and `tokens restore`):
    /// days since a version was replaced, versions per entry, and MiB per account.
    public let historyDays: Sourced<Int>
    public let historyVersions: Sourced<Int>
    public let historyMiB: Sourced<Int>
    /// Where `GET /metrics` (Prometheus's text format) is served, apart from the API: nil when
    /// no `server.metrics.port` is set (no metrics are kept then).
    public let metricsHost: Sourced<String>
    public let metricsPort: Sourced<Int>?
    /// Text lines, or one JSON object per line.
    public let logFormat: Sourced<LogFormat>
    /// A line per request at info (method, route, status, duration, client address); off, at debug.
    public let accessLog: Sourced<Bool>
    /// Who may open a sync account (`SignupSetting.standard` unless configured).
    public let signup: Sourced<SignupSetting>

    /// The protocol's longest wait (SyncServer's `SyncLimits.longPollLimit`, which this target
    /// does not import: it is shared with the client; a test keeps the two equal).
    public static let pullWaitLimit = 30

    /// The database ALPHA uses when none is configured: a local staging database.
    public static let alphaDatabaseURL = "postgres://tokens@localhost:5432/tokens_alpha"
}

extension ServerSettings {
    /// An IPv4 or IPv6 address in text (what the system's parser accepts).
    static func isIPAddress(_ text: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
    }
}

extension SettingsLoader {
    /// The server's keys (`tokens-server` only; the `tokens` man page lists `keys`).
    static let serverKeys = [
        "server.host", "server.port", "server.database.url", "server.tls.certificate", "server.tls.key", "server.pull.wait",
        "server.proxies", "server.connections.max", "server.connections.per.address", "server.request.timeout",
        "server.idle.timeout", "server.accounts.per.address", "server.accounts.per.hour", "server.enrolments.per.account",
        "server.enrolments.per.address", "server.pulls.waiting.per.device", "server.pulls.waiting", "server.bodies.in.flight",
        "server.quota.entries", "server.quota.bytes", "server.history.days", "server.history.versions", "server.history.bytes",
        "server.metrics.host", "server.metrics.port", "server.log.format", "server.log.access", "server.signup",
    ]

    /// The server's settings. REAL needs a database URL; a certificate needs its key.
    public func loadServer() async throws -> ServerSettings {
        let resolver = try await makeResolver()
        let phase = try resolver.resolve("phase", default: Phase.default, expected: "dev, alpha or real", Phase.init(name:))
        let logLevel = try resolver.resolve(
            "log.level", default: phase.value == .real ? .info : phase.value.defaultLogLevel,
            expected: LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
        ) { LogLevel(rawValue: $0.lowercased()) }
        let host = try resolver.resolve("server.host", default: "127.0.0.1", expected: "a host name or address") {
            $0.isEmpty || $0.count > 253 ? nil : $0
        }
        let port = try resolver.resolve("server.port", default: 8787, expected: "a port from 0 to 65535") {
            Int($0).flatMap { (0...65_535).contains($0) ? $0 : nil }
        }
        let optionalText: (String) -> String? = { $0.isEmpty ? nil : $0 }
        var databaseURL: Sourced<String>?
        switch phase.value {
        case .dev: databaseURL = nil
        case .alpha:
            databaseURL = try resolver.resolve(
                "server.database.url", default: ServerSettings.alphaDatabaseURL, expected: "a postgres:// URL", optionalText)
        case .real:
            databaseURL = try resolver.resolve("server.database.url", default: "", expected: "a postgres:// URL") { $0 }
            if databaseURL?.value.isEmpty == true { throw ConfigurationError.missingServerDatabase }
        }
        let certificate = try resolver.resolve("server.tls.certificate", default: "", expected: "a PEM file path") { $0 }
        let key = try resolver.resolve("server.tls.key", default: "", expected: "a PEM file path") { $0 }
        guard certificate.value.isEmpty == key.value.isEmpty else { throw ConfigurationError.incompleteTLS }
        let limit = ServerSettings.pullWaitLimit
        let pullWait = try resolver.resolve("server.pull.wait", default: limit, expected: "0 to \(limit) seconds") {
            Int($0).flatMap { (0...limit).contains($0) ? $0 : nil }
        }
        let proxies = try resolver.resolve("server.proxies", default: [String](), expected: "IP addresses, comma-separated") { text in
            let list = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return list.allSatisfy(ServerSettings.isIPAddress) ? list : nil
        }
        let count: (ClosedRange<Int>) -> (String) -> Int? = { range in { Int($0).flatMap { range.contains($0) ? $0 : nil } } }
        let maxConnections = try resolver.resolve(
            "server.connections.max", default: 4096, expected: "1 to 1000000 connections", count(1...1_000_000))
        let perAddress = try resolver.resolve(
            "server.connections.per.address", default: 64, expected: "1 to 1000000 connections", count(1...1_000_000))
        let requestTimeout = try resolver.resolve("server.request.timeout", default: 15, expected: "1 to 3600 seconds", count(1...3600))
        let idleTimeout = try resolver.resolve("server.idle.timeout", default: 75, expected: "1 to 3600 seconds", count(1...3600))
        let accountsPerAddress = try resolver.resolve(
            "server.accounts.per.address", default: 10, expected: "1 to 1000000 accounts", count(1...1_000_000))
        let accountsPerHour = try resolver.resolve(
            "server.accounts.per.hour", default: 1000, expected: "1 to 1000000 accounts", count(1...1_000_000))
        let enrolmentsPerAccount = try resolver.resolve(
            "server.enrolments.per.account", default: 10, expected: "1 to 1000000 enrolments", count(1...1_000_000))
        let enrolmentsPerAddress = try resolver.resolve(
            "server.enrolments.per.address", default: 30, expected: "1 to 1000000 enrolments", count(1...1_000_000))
        let waitingPerDevice = try resolver.resolve(
            "server.pulls.waiting.per.device", default: 4, expected: "1 to 1000 pulls", count(1...1000))
        let waiting = try resolver.resolve("server.pulls.waiting", default: 1024, expected: "0 to 1000000 pulls", count(0...1_000_000))
        let bodies = try resolver.resolve("server.bodies.in.flight", default: 64, expected: "4 to 65536 MiB", count(4...65_536))
        let quotaEntries = try resolver.resolve(
            "server.quota.entries", default: 10_000, expected: "1 to 100000000 entries", count(1...100_000_000))
        let quotaMiB = try resolver.resolve("server.quota.bytes", default: 64, expected: "1 to 1048576 MiB", count(1...1_048_576))
        let historyDays = try resolver.resolve("server.history.days", default: 90, expected: "0 to 3650 days", count(0...3650))
        let historyVersions = try resolver.resolve("server.history.versions", default: 20, expected: "0 to 1000 versions", count(0...1000))
        let historyMiB = try resolver.resolve("server.history.bytes", default: 16, expected: "0 to 1048576 MiB", count(0...1_048_576))
        let metricsHost = try resolver.resolve("server.metrics.host", default: "127.0.0.1", expected: "a host name or address") {
            $0.isEmpty || $0.count > 253 ? nil : $0
        }
        let metricsPort = try resolver.resolve("server.metrics.port", default: -1, expected: "a port from 0 to 65535") {
            Int($0).flatMap { (0...65_535).contains($0) ? $0 : nil }
        }
        if metricsPort.value > 0, metricsPort.value == port.value, metricsHost.value == host.value {
            throw ConfigurationError.invalidValue(
                key: "server.metrics.port", value: String(metricsPort.value), source: metricsPort.source,
                expected: "a port other than server.port (metrics stay off the API's port)")
        }
        let logFormat = try resolver.resolve(
            "server.log.format", default: LogFormat.text, expected: "text or json"
        ) { LogFormat(rawValue: $0.lowercased()) }
        let accessLog = try resolver.resolve("server.log.access", default: true, expected: "on or off") { text in
            switch text.lowercased() {
            case "on", "true", "yes", "1": true
            case "off", "false", "no", "0": false
            default: nil
            }
        }
        let signup = try resolver.resolve(
            "server.signup", default: SignupSetting.standard(host: host.value, proxies: proxies.value),
            expected: "open, invitation or closed"
        ) { SignupSetting(rawValue: $0.lowercased()) }
        return ServerSettings(
            phase: phase, logLevel: logLevel, host: host, port: port, databaseURL: databaseURL,
            tlsCertificate: certificate.value.isEmpty ? nil : certificate, tlsKey: key.value.isEmpty ? nil : key,
            pullWait: pullWait, trustedProxies: proxies, maxConnections: maxConnections, maxConnectionsPerAddress: perAddress,
            requestTimeout: requestTimeout, idleTimeout: idleTimeout, accountsPerAddress: accountsPerAddress,
            accountsPerHour: accountsPerHour,
            enrolmentsPerAccount: enrolmentsPerAccount, enrolmentsPerAddress: enrolmentsPerAddress, waitingPullsPerDevice: waitingPerDevice,
            waitingPulls: waiting, bodiesInFlightMiB: bodies, quotaEntries: quotaEntries, quotaMiB: quotaMiB,
            historyDays: historyDays, historyVersions: historyVersions, historyMiB: historyMiB, metricsHost: metricsHost,
            metricsPort: metricsPort.value < 0 ? nil : metricsPort, logFormat: logFormat, accessLog: accessLog,
            signup: signup)
    }
}
