// swift-tools-version: 6.2
// Fixture: a shipped target that uses the test-support product breaks rule 9 (a test target may).
import PackageDescription

let package = Package(
    name: "Data",
    dependencies: [.package(path: "../Domain")],
    targets: [
        .target(name: "DataLayer", dependencies: [.product(name: "DomainTestSupport", package: "Domain")]),
        .testTarget(name: "DataLayerTests", dependencies: [.product(name: "DomainTestSupport", package: "Domain")]),
    ]
)
