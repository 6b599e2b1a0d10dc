import Foundation
import ProcessKit

/// Rule 10: every package builds with `--explicit-target-dependency-import-check error`, so no
/// target imports a target of its package that it does not declare. Judged by the exit code
/// ("Build complete!" is printed either way). It builds, so it runs only when asked.
public struct ImportCheckRule: ArchitectureRule {
    public let number = 10
    public let title = "every package builds with --explicit-target-dependency-import-check error"
    /// The build folder to use; nil gives each package its own.
    let scratchPath: String?
    let packages: [String]?
    /// More `swift build` arguments, to match the flags of the build being reused.
    let extraArguments: [String]

    public init(scratchPath: String? = nil, packages: [String]? = nil, extraArguments: [String] = []) {
        self.scratchPath = scratchPath
        self.packages = packages
        self.extraArguments = extraArguments
    }

    public func check(_ repository: Repository) throws -> [Violation] {
        var violations: [Violation] = []
        for folder in packages ?? repository.presentPackages {
            var arguments = [
                "build", "--package-path", repository.root.appendingPathComponent(folder).path, "--build-tests",
                "--explicit-target-dependency-import-check", "error",
            ]
            if let scratchPath { arguments += ["--scratch-path", scratchPath] }
            arguments += extraArguments
            let result = try ProcessRunner.run("swift", arguments)
            guard result.status != 0 else { continue }
            let output = result.stdout + result.stderr
            let lines = output.split(separator: "\n")
            // SwiftPM's own verdict first ("Target X imports another target (Y) … without declaring it").
            let undeclared = lines.filter { $0.contains("without declaring it") }
            let errors = (undeclared.isEmpty ? lines.filter { $0.contains("error:") } : undeclared).prefix(3)
            let detail = errors.isEmpty ? "build failed (exit \(result.status))" : errors.joined(separator: "; ")
            violations.append(Violation("\(folder)/Package.swift", String(detail)))
        }
        return violations
    }
}
