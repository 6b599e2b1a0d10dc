import AppComposition
import AppConfiguration
import SyncServer
import Testing

/// The server's settings: flag > TOKENS_* environment > config file > default, per phase.
@Suite("Server settings")
struct ServerSettingsTests {
    func load(flags: [String: String] = [:], environment: [String: String] = [:]) async throws -> ServerSettings {
        var variables = ["HOME": "/nonexistent-home"]
        variables.merge(environment) { $1 }
        return try await SettingsLoader(flags: flags, environment: variables).loadServer()
    }

    @Test("DEV keeps everything in memory on loopback port 8787; ALPHA has a local staging database")
    func defaults() async throws {
        let dev = try await load(flags: ["phase": "dev"])
        #expect(dev.databaseURL == nil && dev.host.value == "127.0.0.1" && dev.port.value == 8787)
        let alpha = try await load(flags: ["phase": "alpha"])
        #expect(alpha.databaseURL == Sourced(ServerSettings.alphaDatabaseURL, from: .default))
    }

    @Test("who may open an account: open on loopback, invitation off it or behind a proxy, as configured else; a bad value is refused")
    func signup() async throws {
        #expect(try await load(flags: ["phase": "dev"]).signup == Sourced(.open, from: .default))
        for host in ["0.0.0.0", "192.0.2.7", "sync.example.com", "::"] {
            #expect(try await load(flags: ["phase": "dev", "server.host": host]).signup.value == .invitation, "\(host)")
        }
        for host in ["127.0.0.1", "127.0.1.1", "::1", "localhost"] {
            #expect(try await load(flags: ["phase": "dev", "server.host": host]).signup.value == .open, "\(host)")
        }
        #expect(try await load(flags: ["phase": "dev"], environment: ["TOKENS_SERVER_PROXIES": "127.0.0.1"]).signup.value == .invitation)
        let closed = try await load(flags: ["phase": "dev", "server.host": "0.0.0.0"], environment: ["TOKENS_SERVER_SIGNUP": "Closed"])
        #expect(closed.signup == Sourced(.closed, from: .environment("TOKENS_SERVER_SIGNUP")))
        await #expect(throws: ConfigurationError.self) { try await load(flags: ["phase": "dev", "server.signup": "maybe"]) }
        #expect(SignupSetting.allCases.map(\.rawValue) == SignupPolicy.allCases.map(\.rawValue), "the server's rules take every setting")
    }

    @Test("REAL takes its database from the environment, a flag beats it, and without one it refuses")
    func realDatabase() async throws {
        let fromEnvironment = try await load(
            flags: ["phase": "real"], environment: ["TOKENS_SERVER_DATABASE_URL": "postgres://db/sync"])
        #expect(fromEnvironment.databaseURL == Sourced("postgres://db/sync", from: .environment("TOKENS_SERVER_DATABASE_URL")))
        let fromFlag = try await load(
            flags: ["phase": "real", "server.database.url": "postgres://other/sync"],
            environment: ["TOKENS_SERVER_DATABASE_URL": "postgres://db/sync"])
        #expect(fromFlag.databaseURL?.value == "postgres://other/sync")
        await #expect(throws: ConfigurationError.missingServerDatabase) { try await load(flags: ["phase": "real"]) }
    }

    @Test("a bad port, or a certificate without its key, is a clear error")
    func invalid() async throws {
        await #expect(throws: ConfigurationError.self) { try await load(flags: ["phase": "dev", "server.port": "70000"]) }
        await #expect(throws: ConfigurationError.incompleteTLS) {
            try await load(flags: ["phase": "dev", "server.tls.certificate": "/cert.pem"])
        }
        let port = try await load(flags: ["phase": "dev"], environment: ["TOKENS_SERVER_PORT": "9000"])
        #expect(port.port == Sourced(9000, from: .environment("TOKENS_SERVER_PORT")))
    }

    @Test("metrics: off unless a port is set, on loopback unless a host is; never the API's own port")
    func metrics() async throws {
        let defaults = try await load(flags: ["phase": "dev"])
        #expect(defaults.metricsPort == nil && defaults.metricsHost.value == "127.0.0.1")
        let on = try await load(flags: ["phase": "dev"], environment: ["TOKENS_SERVER_METRICS_PORT": "9464"])
        #expect(on.metricsPort == Sourced(9464, from: .environment("TOKENS_SERVER_METRICS_PORT")))
        #expect(try await load(flags: ["phase": "dev", "server.metrics.port": "0"]).metricsPort?.value == 0)
        await #expect(throws: ConfigurationError.self) { try await load(flags: ["phase": "dev", "server.metrics.port": "8787"]) }
        await #expect(throws: ConfigurationError.self) { try await load(flags: ["phase": "dev", "server.metrics.port": "-1"]) }
        let apart = try await load(flags: ["phase": "dev", "server.metrics.port": "8787", "server.metrics.host": "10.0.0.5"])
        #expect(apart.metricsPort?.value == 8787)
    }

    @Test("how long a pull may wait: 30 s unless configured, 0 to 30, the protocol's own bound")
    func pullWait() async throws {
        #expect(try await load(flags: ["phase": "dev"]).pullWait.value == 30)
        let configured = try await load(flags: ["phase": "dev"], environment: ["TOKENS_SERVER_PULL_WAIT": "0"])
        #expect(configured.pullWait == Sourced(0, from: .environment("TOKENS_SERVER_PULL_WAIT")))
        await #expect(throws: ConfigurationError.self) { try await load(flags: ["phase": "dev", "server.pull.wait": "31"]) }
        #expect(ServerSettings.pullWaitLimit == SyncLimits.longPollLimit)
    }

    @Test("connection, account, enrolment, long-poll and body limits: the rules' defaults unless configured; nonsense refused")
    func connectionLimits() async throws {
        let defaults = try await load(flags: ["phase": "dev"])
        #expect(
            defaults.maxConnections.value == 4096 && defaults.maxConnectionsPerAddress.value == 64 && defaults.requestTimeout.value == 15)
        #expect(defaults.idleTimeout.value == 75)
        #expect(defaults.accountsPerAddress.value == 10 && defaults.accountsPerHour.value == 1000)
        #expect(defaults.enrolmentsPerAccount.value == 10 && defaults.enrolmentsPerAddress.value == 30)
        #expect(defaults.waitingPullsPerDevice.value == 4 && defaults.waitingPulls.value == 1024 && defaults.bodiesInFlightMiB.value == 64)
        #expect(defaults.quotaEntries.value == 10_000 && defaults.quotaMiB.value == 64)
        // The defaults are the rules' own.
        let rules = SyncLimits()
        #expect(rules.quota == StorageQuota(entries: 10_000, bytes: 64 * 1024 * 1024))
        #expect(
            rules.enrolmentsPerAccount == 10 && rules.enrolmentsPerAddress == 30 && rules.waitingPullsPerDevice == 4
                && rules.waitingPulls == 1024)
        let configured = try await load(
            flags: ["phase": "dev"],
            environment: [
                "TOKENS_SERVER_CONNECTIONS_MAX": "100", "TOKENS_SERVER_CONNECTIONS_PER_ADDRESS": "5", "TOKENS_SERVER_REQUEST_TIMEOUT": "3",
            ])
        #expect(configured.maxConnections == Sourced(100, from: .environment("TOKENS_SERVER_CONNECTIONS_MAX")))
        #expect(configured.maxConnectionsPerAddress.value == 5 && configured.requestTimeout.value == 3)
        let limited = try await load(
            flags: ["phase": "dev"], environment: ["TOKENS_SERVER_ENROLMENTS_PER_ADDRESS": "3", "TOKENS_SERVER_BODIES_IN_FLIGHT": "8"])
        #expect(
            limited.enrolmentsPerAddress == Sourced(3, from: .environment("TOKENS_SERVER_ENROLMENTS_PER_ADDRESS"))
                && limited.bodiesInFlightMiB.value == 8)
        for (key, value) in [
            ("server.connections.max", "0"), ("server.connections.per.address", "many"), ("server.request.timeout", "0"),
            ("server.idle.timeout", "3601"), ("server.accounts.per.address", "0"), ("server.enrolments.per.account", "0"),
            ("server.pulls.waiting.per.device", "x"), ("server.bodies.in.flight", "1"), ("server.quota.entries", "0"),
            ("server.quota.bytes", "lots"), ("server.history.days", "3651"), ("server.history.versions", "-1"),
            ("server.history.bytes", "x"),
        ] {
            await #expect(throws: ConfigurationError.self) { try await load(flags: ["phase": "dev", key: value]) }
        }
    }

    @Test("trusted proxies: none unless configured; a comma-separated list of IPv4 and IPv6 addresses; anything else refused")
    func proxies() async throws {
        #expect(try await load(flags: ["phase": "dev"]).trustedProxies.value.isEmpty)
        let configured = try await load(flags: ["phase": "dev"], environment: ["TOKENS_SERVER_PROXIES": "127.0.0.1, ::1"])
        #expect(configured.trustedProxies == Sourced(["127.0.0.1", "::1"], from: .environment("TOKENS_SERVER_PROXIES")))
        await #expect(throws: ConfigurationError.self) { try await load(flags: ["phase": "dev", "server.proxies": "proxy.example"]) }
    }
}
