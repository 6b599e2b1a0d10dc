import ArchitectureRules
import Foundation

/// `archcheck [--root DIR] [--write-graph | --write-workflows] [--build-check [--scratch-path DIR] [--built 'P Q'] [-- BUILD-ARGS]]`:
/// checks the architecture rules and prints an ArchUnit-style report; exits 1 when any rule is broken.
/// `--built` names packages this run already built with the import check (make test's own builds),
/// so the build check leaves them out.
/// `archcheck --dependents PACKAGE` prints the package and every package that depends on it.
@main
enum ArchCheck {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        // Everything after `--` goes to `swift build` in the build check.
        var buildArguments: [String] = []
        if let separator = arguments.firstIndex(of: "--") {
            buildArguments = Array(arguments[(separator + 1)...])
            arguments.removeSubrange(separator...)
        }
        func value(after flag: String) -> String? {
            guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(index...(index + 1)) }
            return arguments[index + 1]
        }
        let root = value(after: "--root") ?? FileManager.default.currentDirectoryPath
        let scratch = value(after: "--scratch-path")
        let built = Set((value(after: "--built") ?? "").split { $0 == "," || $0 == " " }.map(String.init))
        let repository = Repository(root: URL(fileURLWithPath: root))

        if let package = value(after: "--dependents") {
            do {
                print(try PackageGraph.dependents(of: package, in: repository).joined(separator: " "))
                exit(0)
            } catch {
                fail("\(error)")
            }
        }

        if arguments.contains("--write-workflows") {
            do {
                for (path, text) in try CIWorkflows.generated(repository) {
                    let url = repository.root.appendingPathComponent(path)
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(text.utf8).write(to: url)
                    print("wrote \(path)")
                }
                exit(0)
            } catch {
                fail("\(error)")
            }
        }

        if arguments.contains("--write-graph") {
            do {
                let path = repository.root.appendingPathComponent(ModuleGraph.document)
                let text = try String(contentsOf: path, encoding: .utf8)
                guard let updated = ModuleGraph.replacingBlock(in: text, with: try ModuleGraph.mermaid(repository)) else {
                    fail("\(ModuleGraph.document) has no module-graph markers")
                }
                try Data(updated.utf8).write(to: path)
                print("wrote the module graph into \(ModuleGraph.document)")
                exit(0)
            } catch {
                fail("\(error)")
            }
        }

        let rules: [any ArchitectureRule] =
            arguments.contains("--build-check")
            ? [
                ImportCheckRule(
                    scratchPath: scratch, packages: repository.presentPackages.filter { !built.contains($0) },
                    extraArguments: buildArguments)
            ] : Rules.structural
        let results = Rules.check(rules, in: repository)
        print(Rules.report(results))
        exit(results.allSatisfy { $0.violations.isEmpty } ? 0 : 1)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("archcheck: \(message)\n".utf8))
        exit(1)
    }
}
