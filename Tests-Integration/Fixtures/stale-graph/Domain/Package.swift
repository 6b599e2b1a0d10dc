// swift-tools-version: 6.2
// Fixture: a Domain with no dependencies, while ARCHITECTURE.md claims one (rule 11).
import PackageDescription

let package = Package(name: "Domain", targets: [.target(name: "Domain")])
