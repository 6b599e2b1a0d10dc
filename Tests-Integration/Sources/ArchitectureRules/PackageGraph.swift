import Foundation

/// Which packages depend on which, from their manifests' local (path) dependencies, the graph
/// rule 11 checks: what a change to one package can break (`make test-layer LAYER=X`).
public enum PackageGraph {
    /// `folder` and every package that depends on it, directly or through another, innermost
    /// first; `unknownPackage` when the repository has no such package.
    public static func dependents(of folder: String, in repository: Repository) throws -> [String] {
        let packages = repository.presentPackages
        guard packages.contains(folder) else { throw ArchitectureCheckError.unknownPackage(folder, packages) }
        var dependsOn: [String: Set<String>] = [:]
        for package in packages {
            dependsOn[package] = Set(try repository.manifest(package).dependencies.filter(\.isLocal).map(\.name))
        }
        var reached: Set<String> = [folder]
        var changed = true
        while changed {
            changed = false
            for package in packages where !reached.contains(package) && !(dependsOn[package] ?? []).isDisjoint(with: reached) {
                reached.insert(package)
                changed = true
            }
        }
        return packages.filter(reached.contains)
    }
}
