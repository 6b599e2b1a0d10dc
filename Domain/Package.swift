// swift-tools-version: 6.2
// Domain: entities, value types, use cases and the ports everything outside implements.
// It depends on nothing: every other layer points at it.
import PackageDescription

let package = Package(
    name: "Domain",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Domain", targets: ["Domain"]),
        // The fakes, for other packages' test targets only (rule 9): one contract suite in Data
        // runs the repository fake against the real stores.
        .library(name: "DomainTestSupport", targets: ["DomainTestSupport"]),
        // The sync server's rules: no client type, no NIO, HTTP or SQL (rules 14 and 15).
        .library(name: "SyncServer", targets: ["SyncServer"]),
        .library(name: "SyncServerTestSupport", targets: ["SyncServerTestSupport"]),
    ],
    targets: [
        // The rules both ends of the sync protocol apply alike (the client's Domain and the
        // server's SyncServer), so that the two cannot drift apart.
        .target(name: "SyncProtocol"),
        .target(name: "Domain", dependencies: ["SyncProtocol"]),
        // Fakes and builders for tests, kept out of Sources/ and out of every shipped product.
        .target(name: "DomainTestSupport", dependencies: ["Domain"], path: "TestSupport"),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "DomainTestSupport"]),
        .target(name: "SyncServer", dependencies: ["SyncProtocol"]),
        // The server's fakes (clock, randomness, digests) for Data's and Presentation's tests.
        .target(name: "SyncServerTestSupport", dependencies: ["SyncServer"], path: "ServerTestSupport"),
        .testTarget(name: "SyncServerTests", dependencies: ["SyncServer", "SyncServerTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
