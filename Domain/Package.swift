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
        .target(name: "Domain"),
        // Fakes and builders for tests, kept out of Sources/ and out of every shipped product.
        .target(name: "DomainTestSupport", dependencies: ["Domain"], path: "TestSupport"),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "DomainTestSupport"]),
        // Rules/DeviceNameRule.swift is a link to Domain's file: the one rule both ends of the
        // protocol apply, compiled into each, since neither target may import the other.
        .target(name: "SyncServer"),
        // The server's fakes (clock, randomness, digests) for Data's and Presentation's tests.
        .target(name: "SyncServerTestSupport", dependencies: ["SyncServer"], path: "ServerTestSupport"),
        .testTarget(name: "SyncServerTests", dependencies: ["SyncServer", "SyncServerTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
