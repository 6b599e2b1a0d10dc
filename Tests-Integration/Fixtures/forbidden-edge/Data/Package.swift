// swift-tools-version: 6.2
// Fixture: Data depending on Presentation (a sibling layer) breaks rule 2.
import PackageDescription

let package = Package(
    name: "Data",
    dependencies: [.package(path: "../Domain"), .package(path: "../Presentation")],
    targets: [.target(name: "DataLayer")]
)
