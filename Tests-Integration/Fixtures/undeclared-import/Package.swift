// swift-tools-version: 6.2
// Fixture: Feature imports Core without declaring it, while another target brings Core into the
// build. --explicit-target-dependency-import-check error must reject it by name (rule 10).
import PackageDescription

let package = Package(
    name: "UndeclaredImport",
    targets: [
        .target(name: "Core"),
        .target(name: "Feature"),
        .target(name: "Bundle", dependencies: ["Core", "Feature"]),
    ]
)
