// swift-tools-version: 6.2
// Fixture: Domain, which Data depends on; Data's workflow does not watch it (rule 16).
import PackageDescription

let package = Package(name: "Domain", targets: [.target(name: "Domain")])
