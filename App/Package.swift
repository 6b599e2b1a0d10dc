// swift-tools-version: 6.2
// App: the only composition root. It reads the phase and settings, builds the object graph for
// that phase, and ships the `tokens` executable. Nothing depends on App but Tests-Integration.
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tokens", targets: ["tokens"]),
        .executable(name: "tokens-server", targets: ["tokens-server"]),
        // For Tests-Integration, which builds the real graph through App's own code.
        .library(name: "AppComposition", targets: ["AppComposition"]),
        .library(name: "AppConfiguration", targets: ["AppConfiguration"]),
        .library(name: "SyncComposition", targets: ["SyncComposition"]),
    ],
    dependencies: [
        .package(path: "../Domain"),
        .package(path: "../Data"),
        .package(path: "../Presentation"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        // NIOCore's IOError: a bind refused for a taken address is told with the address.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        // tokens-server's /metrics: swift-metrics' backend in Prometheus's text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
    ],
    targets: [
        // A command line read by table lookups, with --help, the man page and completions made
        // from the same declarations (no run-time reflection: one-shot commands start fast).
        .target(name: "CommandLineKit"),
        // prctl(2) from C: Swift does not import variadic C functions.
        .target(name: "CProcessControl"),
        // Settings (flag > environment > config file > default) and log set-up, shared by both
        // executables: it knows no layer, so the server does not link the client's graph.
        .target(
            name: "AppConfiguration",
            dependencies: [
                "CommandLineKit",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "AppComposition",
            dependencies: [
                "AppConfiguration", "CProcessControl",
                .product(name: "Domain", package: "Domain"),
                .product(name: "DataLayer", package: "Data"),
                .product(name: "Presentation", package: "Presentation"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The sync client's graph (HTTP client and remotes over it), apart from AppComposition so
        // that only the programs that sync link NIO, AsyncHTTPClient and their TLS (12 MB).
        .target(
            name: "SyncComposition",
            dependencies: [
                .product(name: "Domain", package: "Domain"),
                .product(name: "SyncRemoteData", package: "Data"),
            ]
        ),
        .executableTarget(
            name: "tokens",
            dependencies: [
                "AppComposition", "AppConfiguration", "SyncComposition",
                .product(name: "Domain", package: "Domain"),
                .product(name: "Presentation", package: "Presentation"),
                .product(name: "TerminalUI", package: "Presentation"),
                "CommandLineKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The sync server's composition root (its settings are read by AppConfiguration's loader).
        .target(
            name: "ServerComposition",
            dependencies: [
                "AppConfiguration",
                .product(name: "SyncServer", package: "Domain"),
                .product(name: "SyncServerData", package: "Data"),
                .product(name: "SyncServerHTTP", package: "Presentation"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "tokens-server",
            dependencies: [
                "AppConfiguration", "ServerComposition", "CommandLineKit",
                .product(name: "SyncServer", package: "Domain"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "AppComposition", "AppConfiguration", "tokens", "ServerComposition", "CommandLineKit",
                .product(name: "Domain", package: "Domain"),
                .product(name: "DomainTestSupport", package: "Domain"),
                .product(name: "DataLayer", package: "Data"),
                .product(name: "DataTestSupport", package: "Data"),
                .product(name: "SyncServer", package: "Domain"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
