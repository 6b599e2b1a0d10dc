// swift-tools-version: 6.2
// Presentation: UI-free view models (Observation, @MainActor) and, in its own target, the
// terminal views that render them. It depends on Domain only.
import PackageDescription

let package = Package(
    name: "Presentation",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Presentation", targets: ["Presentation"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
    ],
    dependencies: [
        .package(path: "../Domain"),
    ],
    targets: [
        .target(name: "Presentation", dependencies: [.product(name: "Domain", package: "Domain")]),
        .target(name: "TerminalUI", dependencies: ["Presentation"]),
        // Fakes and the test clock, kept out of Sources/ and out of every product.
        .target(
            name: "PresentationTestSupport",
            dependencies: ["Presentation", .product(name: "Domain", package: "Domain")],
            path: "TestSupport"
        ),
        .testTarget(
            name: "PresentationTests",
            dependencies: ["Presentation", "PresentationTestSupport", .product(name: "Domain", package: "Domain")]
        ),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "Presentation", .product(name: "Domain", package: "Domain")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
