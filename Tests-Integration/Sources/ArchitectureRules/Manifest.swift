import Foundation

/// What the architecture rules need from one package manifest, read from
/// `swift package dump-package` (no resolution, no build).
public struct Manifest: Sendable {
    /// A dependency on another package.
    public struct PackageDependency: Hashable, Sendable {
        /// The folder name for a local (path) package, or the repository name for a remote one.
        public let name: String
        public let isLocal: Bool
    }

    /// A target and what it depends on.
    public struct Target: Sendable {
        public let name: String
        public let type: String
        /// Targets of the same package it depends on.
        public let localDependencies: [String]
        /// Products of other packages it depends on, as "package/product".
        public let productDependencies: [String]
    }

    /// A product and the targets it ships.
    public struct Product: Sendable {
        public let name: String
        public let targets: [String]
    }

    /// The package's folder name (Domain, Data, …).
    public let folder: String
    public let dependencies: [PackageDependency]
    public let targets: [Target]
    public let products: [Product]

    /// Parses dump-package JSON.
    public init(folder: String, json: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw ArchitectureCheckError.unreadableManifest(folder, "not a JSON object")
        }
        self.folder = folder
        self.dependencies = (root["dependencies"] as? [[String: Any]] ?? []).compactMap { entry in
            if let local = (entry["fileSystem"] as? [[String: Any]])?.first, let path = local["path"] as? String {
                return PackageDependency(name: URL(fileURLWithPath: path).lastPathComponent, isLocal: true)
            }
            if let remote = (entry["sourceControl"] as? [[String: Any]])?.first {
                let url = ((remote["location"] as? [String: Any])?["remote"] as? [[String: Any]])?.first?["urlString"] as? String
                let name = url.map { URL(string: $0)?.lastPathComponent ?? $0 } ?? (remote["identity"] as? String ?? "?")
                return PackageDependency(name: name, isLocal: false)
            }
            return nil
        }
        self.targets = (root["targets"] as? [[String: Any]] ?? []).map { target in
            var local: [String] = []
            var products: [String] = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                if let byName = dependency["byName"] as? [Any], let name = byName.first as? String {
                    local.append(name)
                } else if let named = dependency["target"] as? [Any], let name = named.first as? String {
                    local.append(name)
                } else if let product = dependency["product"] as? [Any], let name = product.first as? String {
                    products.append("\(product.count > 1 ? (product[1] as? String ?? "?") : "?")/\(name)")
                }
            }
            return Target(
                name: target["name"] as? String ?? "?", type: target["type"] as? String ?? "?",
                localDependencies: local, productDependencies: products)
        }
        self.products = (root["products"] as? [[String: Any]] ?? []).map {
            Product(name: $0["name"] as? String ?? "?", targets: $0["targets"] as? [String] ?? [])
        }
    }

    /// Every target a product ships, following same-package dependencies.
    public func closure(of targetNames: [String]) -> Set<String> {
        var seen = Set<String>()
        var queue = targetNames
        while let name = queue.popLast() {
            guard seen.insert(name).inserted, let target = targets.first(where: { $0.name == name }) else { continue }
            queue += target.localDependencies
        }
        return seen
    }
}

/// Why the rules could not be checked at all (as opposed to a rule being broken).
public enum ArchitectureCheckError: Error, CustomStringConvertible {
    case unreadableManifest(String, String)
    /// A package name that is none of the repository's (the name, the ones there are).
    case unknownPackage(String, [String])

    public var description: String {
        switch self {
        case .unreadableManifest(let folder, let reason): "cannot read \(folder)/Package.swift: \(reason)"
        case .unknownPackage(let name, let packages): "no package \(name): one of \(packages.joined(separator: ", "))"
        }
    }
}
