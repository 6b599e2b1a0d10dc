import ArchitectureRules
import Foundation
import IntegrationTestSupport
import ProcessKit
import Testing

/// Every architecture rule holds for the real repository, and each one fails on a fixture that
/// breaks it, naming the offending file or edge.
@Suite("Architecture rules")
struct ArchitectureRuleTests {
    static let repository = Repository(root: RepositoryRoot.url)

    @Test("the repository keeps every structural rule", arguments: Rules.structural.map { RuleBox($0) })
    func repositoryKeepsRule(_ rule: RuleBox) throws {
        let violations = try rule.rule.check(Self.repository)
        #expect(violations.isEmpty, "\(Rules.report([(rule.rule, violations)]))")
    }

    /// Fixture name, rule, and the violations it must report.
    static let fixtures: [(fixture: String, rule: RuleBox, expected: [String])] = [
        (
            "domain-has-dependency", RuleBox(DomainHasNoDependencies()),
            ["Domain/Package.swift: Domain -> swift-crypto (Domain may depend on nothing)"]
        ),
        (
            "forbidden-edge", RuleBox(PackageEdgesAreAllowed()),
            ["Data/Package.swift: Data -> Presentation is not an allowed edge"]
        ),
        (
            "domain-imports-crypto", RuleBox(Rules.structural[2]),
            [
                "Domain/Sources/Domain/Hashing.swift:2: imports Crypto",
                "Domain/Sources/SyncServer/Store.swift:2: imports PostgresNIO",
            ]
        ),
        (
            "viewmodel-imports-terminal", RuleBox(Rules.structural[3]),
            ["Presentation/Sources/Presentation/ListViewModel.swift:4: imports TerminalUI"]
        ),
        (
            "terminalui-imports-data", RuleBox(Rules.structural[4]),
            ["Presentation/Sources/TerminalUI/ListView.swift:2: imports DataLayer"]
        ),
        (
            "data-imports-presentation", RuleBox(Rules.structural[5]),
            ["Data/Sources/DataLayer/Store.swift:3: imports Presentation"]
        ),
        (
            "presentation-constructs-data", RuleBox(OnlyAppConstructsData()),
            [
                "Presentation/Sources/Presentation/ListViewModel.swift:4: constructs DataLayer.InMemoryAccountStore",
                "Presentation/Sources/Presentation/ListViewModel.swift:5: constructs DataLayer.InMemoryAccountStore",
            ]
        ),
        (
            "domain-reads-clock", RuleBox(NoAmbientClockOrRandomness()),
            [
                "Domain/Sources/Domain/Expiry.swift:6: calls Date() (inject a Clock or RandomSource)",
                "Domain/Sources/Domain/Expiry.swift:7: calls .random( (inject a Clock or RandomSource)",
                "Domain/Sources/Domain/Expiry.swift:8: calls Date() (inject a Clock or RandomSource)",
                "Domain/Sources/Domain/Expiry.swift:9: calls Date(timeIntervalSinceNow:) (inject a Clock or RandomSource)",
            ]
        ),
        (
            "test-support-in-product", RuleBox(NoTestSupportInProducts()),
            [
                "Domain/Package.swift: product Domain ships test-support target DomainTestSupport",
                "Data/Package.swift: target DataLayer uses test-support product Domain/DomainTestSupport",
            ]
        ),
        (
            "stale-graph", RuleBox(CommittedGraphMatches()),
            [
                "ARCHITECTURE.md: committed but not in manifests: Domain -.-> swiftcrypto[\"swift-crypto\"] (run `make graph`)"
            ]
        ),
        (
            "domain-has-lock", RuleBox(DomainIsPlain()),
            [
                "Domain/Sources/Domain/CodeCache.swift:6: uses @unchecked Sendable",
                "Domain/Sources/Domain/CodeCache.swift:7: uses a lock",
                "Domain/Sources/Domain/CodeCache.swift:8: uses unsafe pointers",
                "Domain/Sources/Domain/CodeCache.swift:9: uses the process or its environment",
                "Domain/Sources/Domain/CodeCache.swift:10: uses the file system",
                "Domain/Sources/Domain/CodeCache.swift:11: uses the network",
            ]
        ),
        (
            "server-imports-client", RuleBox(ServerAndClientApart()),
            [
                "Data/Sources/SyncServerData/Store.swift:1: imports DataLayer",
                "App/Sources/ServerComposition/Wiring.swift:4: imports AppComposition",
                "Domain/Sources/Domain/Account.swift:2: imports SyncServer",
            ]
        ),
        (
            "http-imports-data", RuleBox(Rules.structural[13]),
            ["Presentation/Sources/SyncServerHTTP/Handlers.swift:2: imports SyncServerData"]
        ),
        (
            "stale-workflow", RuleBox(CommittedWorkflowsMatch()),
            [
                ".github/workflows/data.yml: in manifests but not committed: - \"Domain/**\" (run `make workflows`)",
                ".github/workflows/main.yml: missing (run `make workflows`)",
                ".github/workflows/nightly.yml: not generated from the manifests (run `make workflows`)",
            ]
        ),
        (
            "command-builds-use-case", RuleBox(CommandsUseFactories()),
            [
                "App/Sources/tokens/Passwd.swift:7: constructs a Default… type (build it in a make… factory)",
                "App/Sources/tokens/Passwd.swift:8: casts a container (use its typed capability)",
            ]
        ),
        (
            "kill-by-name", RuleBox(NoKillByName()),
            [
                "Makefile:3: finds processes by name to end them; end the pid or process group you started",
                "Tests-Integration/Scripts/stop.sh:3: finds processes by name to end them; end the pid or process group you started",
            ]
        ),
    ]

    @Test("each rule fails on its fixture, naming the place", arguments: fixtures)
    func ruleCanFail(fixture: String, rule: RuleBox, expected: [String]) throws {
        let written = fixture == "kill-by-name" ? try Self.writeKillByNameFixture() : nil
        defer { written.map { try? FileManager.default.removeItem(at: $0) } }
        let violations = try rule.rule.check(Repository(root: written ?? RepositoryRoot.fixture(fixture)))
        #expect(violations.map(\.description) == expected)
        #expect(Rules.report([(rule.rule, violations)]).contains("✘ \(rule.rule.name) was violated"))
    }

    /// Rule 12's fixture, written into a temporary folder: a Makefile and a script that end
    /// processes by name, and a comment that only mentions it. It is not committed, so that no
    /// file of the repository holds such a command (the names are spelled in two parts here).
    static func writeKillByNameFixture() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kill-by-name-\(UUID())")
        let scripts = root.appendingPathComponent("Tests-Integration/Scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let (byName, finder) = ("p" + "kill", "pg" + "rep")
        try Data(
            "# A recipe that cleans up after a failed run the wrong way (a comment naming \(byName) is fine).\ntest:\n\tswift test || { \(byName) -KILL -f PackageTests.xctest; exit 1; }\n"
                .utf8
        )
        .write(to: root.appendingPathComponent("Makefile"))
        try Data("#!/bin/sh\nset -e\nkill $(\(finder) -f tokens-server) || true\n".utf8)
            .write(to: scripts.appendingPathComponent("stop.sh"))
        return root
    }

    @Test("every structural rule has a failing fixture")
    func everyRuleHasAFixture() {
        let covered = Set(Self.fixtures.map(\.rule.rule.number))
        #expect(Set(Rules.structural.map(\.number)).subtracting(covered).isEmpty)
    }

    @Test("rule 10 fails, by its exit code, on an undeclared same-package import")
    func importCheckCanFail() throws {
        let fixture = RepositoryRoot.fixture("undeclared-import")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("import-check-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let parent = fixture.deletingLastPathComponent()
        let violations = try ImportCheckRule(scratchPath: scratch, packages: ["undeclared-import"])
            .check(Repository(root: parent))
        #expect(violations.count == 1)
        #expect(violations.first?.location == "undeclared-import/Package.swift")
        #expect(violations.first?.detail.contains("Core") == true, "\(violations)")
    }

    @Test("the module graph is generated from the manifests, local edges solid and libraries dotted")
    func graphShape() throws {
        let graph = try ModuleGraph.mermaid(Self.repository)
        #expect(graph.contains("    Data --> Domain"))
        #expect(graph.contains("    TestsIntegration[\"Tests-Integration\"] --> App"))
        #expect(graph.contains("    Data -.-> swiftcrypto[\"swift-crypto\"]"))
        #expect(!graph.contains("Domain -->"))
    }
}

/// A rule as a test argument.
struct RuleBox: Sendable, CustomTestStringConvertible {
    let rule: any ArchitectureRule
    init(_ rule: any ArchitectureRule) { self.rule = rule }
    var testDescription: String { rule.name }
}

/// `make test-layer`'s packages: a layer and whatever depends on it, read from the manifests.
@Suite("Package graph")
struct PackageGraphTests {
    @Test("each layer's dependents, innermost first; an unknown package is an error naming the real ones")
    func dependents() throws {
        let repository = ArchitectureRuleTests.repository
        #expect(try PackageGraph.dependents(of: "Domain", in: repository) == Repository.packageFolders)
        #expect(try PackageGraph.dependents(of: "Data", in: repository) == ["Data", "App", "Tests-Integration"])
        #expect(try PackageGraph.dependents(of: "Presentation", in: repository) == ["Presentation", "App", "Tests-Integration"])
        #expect(try PackageGraph.dependents(of: "App", in: repository) == ["App", "Tests-Integration"])
        #expect(throws: ArchitectureCheckError.self) { try PackageGraph.dependents(of: "Domian", in: repository) }
    }
}
