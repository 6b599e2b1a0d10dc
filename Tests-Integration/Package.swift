// swift-tools-version: 6.2
// Tests-Integration: the wired system end to end, the `tokens` binary as a process, and the
// architecture rules CI enforces. It depends on App and the layers; nothing depends on it.
import PackageDescription

let package = Package(
    name: "Tests-Integration",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "archcheck", targets: ["archcheck"])
    ],
    dependencies: [
        .package(path: "../App"),
        .package(path: "../Domain"),
        .package(path: "../Data"),
        .package(path: "../Presentation"),
    ],
    targets: [
        // The architecture rules, as code: what may depend on what, checked from manifests and sources.
        // Running child processes, for the rules and the process tests.
        .target(name: "ProcessKit"),
        .target(name: "ArchitectureRules", dependencies: ["ProcessKit"]),
        .executableTarget(name: "archcheck", dependencies: ["ArchitectureRules"]),
        // `make bench` (not part of `make test`): performance against oathtool and the goals.
        .executableTarget(
            name: "tokens-bench",
            dependencies: [
                "ProcessKit",
                .product(name: "AppComposition", package: "App"),
                .product(name: "AppConfiguration", package: "App"),
                .product(name: "Domain", package: "Domain"),
                .product(name: "Presentation", package: "Presentation"),
                .product(name: "TerminalUI", package: "Presentation"),
            ]
        ),
        // `make loadtest` (not part of `make test`; LoadTests runs a short form): the sync server
        // under wrk against pgbench running its SQL (Load/sync.lua, Load/sync.pgbench).
        .target(name: "LoadKit", dependencies: ["IntegrationTestSupport", "ProcessKit"]),
        .executableTarget(name: "tokens-loadtest", dependencies: ["IntegrationTestSupport", "LoadKit", "ProcessKit"]),
        // A fault injector: runs a command where the kernel keyring's system calls fail.
        .executableTarget(name: "no-keyring"),
        // Test support: locating the repository and the binary, running processes. In no product.
        .target(
            name: "IntegrationTestSupport",
            dependencies: ["ProcessKit", .product(name: "Domain", package: "Domain")]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "IntegrationTestSupport",
                .product(name: "AppComposition", package: "App"),
                .product(name: "AppConfiguration", package: "App"),
                .product(name: "SyncComposition", package: "App"),
                .product(name: "Domain", package: "Domain"),
                .product(name: "DomainTestSupport", package: "Domain"),
                .product(name: "SyncModelTestSupport", package: "Data"),
                .product(name: "Presentation", package: "Presentation"),
            ]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "IntegrationTestSupport",
                .product(name: "DataLayer", package: "Data"),
                .product(name: "Domain", package: "Domain"),
                .product(name: "DomainTestSupport", package: "Domain"),
            ]
        ),
        .testTarget(name: "InstallTests", dependencies: ["IntegrationTestSupport"]),
        .testTarget(name: "BenchTests", dependencies: ["tokens-bench"]),
        .testTarget(
            name: "LoadTests",
            dependencies: ["IntegrationTestSupport", "LoadKit", .product(name: "SyncServerData", package: "Data")]
        ),
        .testTarget(
            name: "ArchitectureTests", dependencies: ["ArchitectureRules", "IntegrationTestSupport", "ProcessKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
