/// Rule 1: Domain's manifest declares no package dependencies.
public struct DomainHasNoDependencies: ArchitectureRule {
    public let number = 1
    public let title = "Domain's manifest has no dependencies"
    public init() {}

    public func check(_ repository: Repository) throws -> [Violation] {
        guard repository.presentPackages.contains("Domain") else { return [Violation("Domain/Package.swift", "missing")] }
        return try repository.manifest("Domain").dependencies.map {
            Violation("Domain/Package.swift", "Domain -> \($0.name) (Domain may depend on nothing)")
        }
    }
}

/// Rule 2: the package edges are exactly the allowed ones (local), and only allowed libraries (remote).
public struct PackageEdgesAreAllowed: ArchitectureRule {
    public let number = 2
    public let title = "package edges equal the allowed list"
    public init() {}

    public func check(_ repository: Repository) throws -> [Violation] {
        var violations: [Violation] = []
        for folder in repository.presentPackages {
            let manifest = try repository.manifest(folder)
            let location = "\(folder)/Package.swift"
            let local = Set(manifest.dependencies.filter(\.isLocal).map(\.name))
            let allowed = AllowedEdges.local[folder] ?? []
            for extra in local.subtracting(allowed).sorted() {
                violations.append(Violation(location, "\(folder) -> \(extra) is not an allowed edge"))
            }
            for missing in allowed.subtracting(local).sorted() {
                violations.append(Violation(location, "\(folder) -> \(missing) is expected but missing"))
            }
            let remote = Set(manifest.dependencies.filter { !$0.isLocal }.map(\.name))
            for extra in remote.subtracting(AllowedEdges.remote[folder] ?? []).sorted() {
                violations.append(Violation(location, "\(folder) -> \(extra) (remote) is not allowed for this layer"))
            }
        }
        return violations
    }
}

/// Rule 9: no test-support target ships in any product.
public struct NoTestSupportInProducts: ArchitectureRule {
    public let number = 9
    public let title = "test-support targets ship in no product but their own, which only tests use"
    public init() {}

    public func check(_ repository: Repository) throws -> [Violation] {
        var violations: [Violation] = []
        for folder in repository.presentPackages {
            let manifest = try repository.manifest(folder)
            for product in manifest.products where !Self.isTestSupport(product.name) {
                for target in manifest.closure(of: product.targets).sorted() where Self.isTestSupport(target) {
                    violations.append(
                        Violation("\(folder)/Package.swift", "product \(product.name) ships test-support target \(target)"))
                }
            }
            for target in manifest.targets where target.type != "test" && !Self.isTestSupport(target.name) {
                for product in target.productDependencies where Self.isTestSupport(product) {
                    violations.append(
                        Violation("\(folder)/Package.swift", "target \(target.name) uses test-support product \(product)"))
                }
            }
        }
        return violations
    }

    /// Test-support targets and products are named so: DomainTestSupport, PresentationTestSupport…
    static func isTestSupport(_ name: String) -> Bool { name.hasSuffix("TestSupport") }
}
