// swift-tools-version: 6.2
// Fixture: a library product that ships the test-support target breaks rule 9; a test-support
// product of its own is allowed.
import PackageDescription

let package = Package(
    name: "Domain",
    products: [
        .library(name: "Domain", targets: ["Domain", "DomainTestSupport"]),
        .library(name: "DomainTestSupport", targets: ["DomainTestSupport"]),
    ],
    targets: [
        .target(name: "Domain"),
        .target(name: "DomainTestSupport", dependencies: ["Domain"]),
    ]
)
