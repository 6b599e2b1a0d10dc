/// The architecture rules CI enforces, and their report.
public enum Rules {
    /// The rules read from manifests and sources (fast; no build).
    public static let structural: [any ArchitectureRule] = [
        DomainHasNoDependencies(),
        PackageEdgesAreAllowed(),
        ImportRule.domainImportsOnlyFoundation,
        ImportRule.viewModelsImportOnlyDomain,
        ImportRule.terminalUIImportsNoData,
        ImportRule.dataImportsNoOuterLayer,
        OnlyAppConstructsData(),
        NoAmbientClockOrRandomness(),
        NoTestSupportInProducts(),
        CommittedGraphMatches(),
        NoKillByName(),
        DomainIsPlain(),
        ServerAndClientApart(),
        ImportRule.serverHTTPImportsNoData,
        CommittedWorkflowsMatch(),
        CommandsUseFactories(),
    ]

    /// Checks `rules`, returning each rule with its violations (a rule that cannot be checked
    /// at all reports that as its violation).
    public static func check(_ rules: [any ArchitectureRule], in repository: Repository) -> [(
        rule: any ArchitectureRule, violations: [Violation]
    )] {
        rules.map { rule in
            do { return (rule, try rule.check(repository)) } catch { return (rule, [Violation("(rule could not run)", "\(error)")]) }
        }
    }

    /// ArchUnit-style report: each broken rule with its count and every offending place.
    public static func report(_ results: [(rule: any ArchitectureRule, violations: [Violation])]) -> String {
        var lines: [String] = []
        for (rule, violations) in results {
            if violations.isEmpty {
                lines.append("✔ \(rule.name)")
            } else {
                lines.append("✘ \(rule.name) was violated (\(violations.count) time\(violations.count == 1 ? "" : "s")):")
                lines += violations.map { "    \($0)" }
            }
        }
        let failed = results.filter { !$0.violations.isEmpty }.count
        lines.append("architecture: \(results.count - failed) passed, \(failed) failed")
        return lines.joined(separator: "\n")
    }
}
