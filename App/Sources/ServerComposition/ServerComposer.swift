import AppConfiguration
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import SyncServer
import SyncServerData
import SyncServerHTTP

/// The sync server's composition root: the phase's store (DEV in memory; ALPHA and REAL on
/// PostgreSQL) behind the rules' use cases, behind the HTTP interface.
package enum ServerComposer {
    /// The use cases over a store, with the system's clock and randomness unless given others.
    package static func makeUseCases(
        store: any SyncServerStore, clock: any ServerClock = SystemServerClock(),
        random: any ServerRandomSource = SystemServerRandom(), notifier: any ChangeNotifier = LocalChangeNotifier(),
        limits: SyncLimits = SyncLimits(), activity: DeviceActivity? = nil
    ) -> SyncServerUseCases {
        let digester = SHA256SecretDigester()
        return SyncServerUseCases(
            createAccount: DefaultCreateSyncAccountUseCase(store: store, digester: digester, clock: clock, limits: limits),
            enrolDevice: DefaultEnrolDeviceUseCase(store: store, digester: digester, clock: clock, random: random, limits: limits),
            authenticate: DefaultAuthenticateDeviceUseCase(
                store: store, digester: digester, activity: activity, recent: RecentDevices(clock: clock)),
            listDevices: DefaultListDevicesUseCase(store: store),
            revokeDevice: DefaultRevokeDeviceUseCase(store: store, clock: clock),
            push: DefaultPushChangesUseCase(
                store: store, digester: digester, clock: clock, notifier: notifier, limits: limits, activity: activity),
            pull: DefaultPullChangesUseCase(
                store: store, digester: digester, clock: clock, notifier: notifier, limits: limits, activity: activity),
            history: DefaultReadHistoryUseCase(store: store, limits: limits),
            keys: SyncKeyUseCases(
                state: DefaultSyncKeyStateUseCase(store: store),
                rotate: DefaultRotateSyncKeyUseCase(store: store, digester: digester, clock: clock, limits: limits),
                registerDeviceKey: DefaultRegisterDeviceKeyUseCase(store: store, limits: limits)),
            readiness: DefaultCheckReadinessUseCase(store: store), clock: clock)
    }

    /// How often tombstones and old history are forgotten: hourly, far finer than their
    /// lifetimes (90 days by default).
    package static let housekeepingInterval = Duration.seconds(3600)

    /// How often the devices seen are written (`admin devices` says when each was last seen):
    /// one statement a minute, whatever the requests.
    package static let activityInterval = Duration.seconds(60)

    /// Connects once to the database of `url`; throws, as one sentence, why it cannot be used.
    package static func checkDatabase(url: String) async throws {
        try await PostgresStartupCheck.check(url: url)
    }

    /// The server of the settings' phase, ready to run (`runService()` stops gracefully on
    /// SIGTERM and SIGINT). `running` hears the port once the server listens.
    /// `metricsRunning` hears the metrics endpoint's port, when one is configured.
    package static func makeApplication(
        settings: ServerSettings, logger: Logger, running: @escaping @Sendable (Int) async -> Void,
        metricsRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let http1 = try connectionGuard(settings: settings, logger: logger)
        var server = HTTPServerBuilder.http1(configuration: http1)
        var reloadable: ReloadableCertificate?
        if let certificate = settings.tlsCertificate?.value, let key = settings.tlsKey?.value {
            let pair = try ReloadableCertificate(certificate: certificate, key: key)
            reloadable = pair
            server = try ServerTLS.server(certificate: pair, http1: http1)
        }
        let store: any SyncServerStore
        var notifier: any ChangeNotifier = LocalChangeNotifier()
        var services: [any Service] = [ReloadService(certificate: reloadable, logger: logger)]
        if let port = settings.metricsPort?.value {
            services.append(
                NamingItsAddress(
                    service: MetricsEndpoint.make(host: settings.metricsHost.value, port: port, logger: logger, running: metricsRunning),
                    address: "\(settings.metricsHost.value):\(port)", setting: "--metrics-port (server.metrics.port)"))
        }
        var migrate: (@Sendable () async throws -> Void)?
        if let url = settings.databaseURL?.value {
            let postgres = try PostgresSyncServerStore.make(url: url, logger: logger)
            store = postgres.store
            // Instances on one database wake each other's long-polls (stopped before the client).
            let changes = PostgresChangeNotifier(primary: postgres.primary, logger: logger)
            notifier = changes
            services.append(DatabaseService(primary: postgres.primary))
            services.append(ChangeListenerService(notifier: changes))
            migrate = { try await postgres.store.migrate() }
        } else {
            store = InMemorySyncServerStore()
        }
        var limits = SyncLimits()
        limits.longPollSeconds = settings.pullWait.value
        limits.accountsPerAddress = settings.accountsPerAddress.value
        limits.accountsInAll = settings.accountsPerHour.value
        limits.enrolmentsPerAccount = settings.enrolmentsPerAccount.value
        limits.enrolmentsPerAddress = settings.enrolmentsPerAddress.value
        limits.waitingPullsPerDevice = settings.waitingPullsPerDevice.value
        limits.waitingPulls = settings.waitingPulls.value
        limits.signup = SignupPolicy(rawValue: settings.signup.value.rawValue) ?? .invitation
        limits.quota = StorageQuota(entries: settings.quotaEntries.value, bytes: settings.quotaMiB.value * 1024 * 1024)
        limits.history = HistoryRetention(
            days: settings.historyDays.value, versionsPerEntry: settings.historyVersions.value,
            bytes: settings.historyMiB.value * 1024 * 1024)
        services.append(
            HousekeepingService(
                expire: DefaultExpireTombstonesUseCase(store: store, clock: SystemServerClock(), limits: limits),
                purgeHistory: DefaultPurgeHistoryUseCase(store: store, clock: SystemServerClock(), retention: limits.history),
                interval: housekeepingInterval, logger: logger))
        let activity = DeviceActivity(clock: SystemServerClock())
        services.append(
            ActivityService(
                record: RecordDeviceActivityUseCase(activity: activity, store: store), interval: activityInterval, logger: logger))
        let router = try SyncServerRouter.make(
            useCases: makeUseCases(store: store, notifier: notifier, limits: limits, activity: activity),
            version: TokensVersion.release, logger: logger,
            trustedProxies: Set(settings.trustedProxies.value),
            bodyBudget: BodyBudget(bytes: settings.bodiesInFlightMiB.value * 1024 * 1024), accessLog: settings.accessLog.value)
        var application = Application(
            router: router, server: server,
            configuration: .init(address: .hostname(settings.host.value, port: settings.port.value), serverName: "tokens-server"),
            services: services, onServerRunning: { channel in await running(channel.localAddress?.port ?? 0) }, logger: logger)
        if let migrate { application.beforeServerStarts(perform: migrate) }
        return application
    }
}

extension ServerComposer {
    /// The HTTP/1.1 configuration with each connection held to the settings' limits; the
    /// descriptor limit is raised to its hard limit first, and the connection cap kept below it.
    static func connectionGuard(settings: ServerSettings, logger: Logger) throws -> HTTP1Channel.Configuration {
        let descriptors = DescriptorLimit.raised()
        let maxConnections = DescriptorLimit.connections(configured: settings.maxConnections.value, limit: descriptors)
        if maxConnections < settings.maxConnections.value {
            logger.notice(
                "connections capped below server.connections.max by the descriptor limit",
                metadata: ["max": "\(maxConnections)", "descriptors": "\(descriptors ?? 0)"])
        }
        let limits = ConnectionLimits(
            maxConnections: maxConnections, maxPerAddress: settings.maxConnectionsPerAddress.value,
            requestTimeout: .seconds(settings.requestTimeout.value), idleTimeout: .seconds(settings.idleTimeout.value),
            unlimitedAddresses: Set(settings.trustedProxies.value))
        return GuardedHTTP1.configuration(counter: ConnectionCounter(limits: limits), limits: limits, logger: logger)
    }
}

/// Why the server could not be put together.
package enum ServerCompositionError: Error, CustomStringConvertible, Equatable {
    /// A TLS certificate or key file that cannot be used.
    case tlsFile(path: String, problem: String)

    package var description: String {
        switch self {
        case .tlsFile(let path, let problem): "TLS: \(path) \(problem)"
        }
    }
}
