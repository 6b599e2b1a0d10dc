// swift-tools-version: 6.2
// Domain: entities, value types, use cases and the ports everything outside implements.
// It depends on nothing: every other layer points at it.
import PackageDescription

let package = Package(
    name: "Domain",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Domain", targets: ["Domain"]),
    ],
    targets: [
        .target(name: "Domain"),
        // Fakes and builders for tests, kept out of Sources/ and out of every product.
        .target(name: "DomainTestSupport", dependencies: ["Domain"], path: "TestSupport"),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "DomainTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
