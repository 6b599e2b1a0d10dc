// swift-tools-version: 6.2
// Fixture: Domain depending on a library breaks rule 1.
import PackageDescription

let package = Package(
    name: "Domain",
    dependencies: [.package(url: "https://github.com/apple/swift-crypto", from: "4.5.0")],
    targets: [.target(name: "Domain", dependencies: [.product(name: "Crypto", package: "swift-crypto")])]
)
