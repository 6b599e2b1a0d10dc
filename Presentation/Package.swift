// swift-tools-version: 6.2
// Presentation: UI-free view models (Observation, @MainActor) and, in its own target, the
// terminal views that render them; in another, the sync server's HTTP interface. It depends on
// Domain (and, for the HTTP target only, on Hummingbird and the OpenAPI runtime).
import PackageDescription

let package = Package(
    name: "Presentation",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Presentation", targets: ["Presentation"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "SyncServerHTTP", targets: ["SyncServerHTTP"]),
    ],
    dependencies: [
        .package(path: "../Domain"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The HTTP interface's metrics (requests, pushes, refusals, waiting pulls), through
        // swift-metrics' API; App chooses the backend.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The connection guard is a channel handler on Hummingbird's HTTP parts.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
    ],
    targets: [
        .target(name: "Presentation", dependencies: [.product(name: "Domain", package: "Domain")]),
        .target(name: "TerminalUI", dependencies: ["Presentation"]),
        // Fakes and the test clock, kept out of Sources/ and out of every product.
        .target(
            name: "PresentationTestSupport",
            dependencies: [
                "Presentation", .product(name: "Domain", package: "Domain"), .product(name: "DomainTestSupport", package: "Domain"),
            ],
            path: "TestSupport"
        ),
        .testTarget(
            name: "PresentationTests",
            dependencies: [
                "Presentation", "PresentationTestSupport", .product(name: "Domain", package: "Domain"),
                .product(name: "DomainTestSupport", package: "Domain"),
            ]
        ),
        // The sync server's HTTP interface: generated from Domain/OpenAPI/sync-api.yaml (make openapi),
        // mapping requests to SyncServer's use cases and errors to problem documents (rule 14: no
        // client target, and rule 15: no Data).
        .target(
            name: "SyncServerHTTP",
            dependencies: [
                .product(name: "SyncServer", package: "Domain"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            exclude: ["Generated/openapi-generator-config.yaml"]
        ),
        .testTarget(
            name: "SyncServerHTTPTests",
            dependencies: [
                "SyncServerHTTP",
                .product(name: "SyncServer", package: "Domain"),
                .product(name: "SyncServerTestSupport", package: "Domain"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "Presentation", .product(name: "Domain", package: "Domain")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
