// swift-tools-version: 6.2
// Fixture: Data depends on Domain, so Data's job must run when Domain changes (rule 16).
import PackageDescription

let package = Package(
    name: "Data",
    dependencies: [.package(path: "../Domain")],
    targets: [.target(name: "DataLayer")]
)
