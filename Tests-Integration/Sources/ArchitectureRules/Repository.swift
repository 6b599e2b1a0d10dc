import Foundation
import ProcessKit

/// A checkout of the monorepo (or a fixture shaped like one): its manifests and sources.
public final class Repository: @unchecked Sendable {
    /// The five package folders, innermost first.
    public static let packageFolders = ["Domain", "Data", "Presentation", "App", "Tests-Integration"]

    public let root: URL
    private let lock = NSLock()
    private var manifestCache: [String: Manifest] = [:]

    public init(root: URL) {
        self.root = root
    }

    /// The package folders that exist here.
    public var presentPackages: [String] {
        Self.packageFolders.filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/Package.swift").path)
        }
    }

    /// The manifest of a package folder, via `swift package dump-package`.
    public func manifest(_ folder: String) throws -> Manifest {
        if let cached = lock.withLock({ manifestCache[folder] }) { return cached }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("archcheck-\(getpid())-\(abs(root.path.hashValue))-\(folder)").path
        let result = try ProcessRunner.run(
            "swift", ["package", "--package-path", root.appendingPathComponent(folder).path, "--scratch-path", scratch, "dump-package"])
        try? FileManager.default.removeItem(atPath: scratch)
        guard result.status == 0 else {
            throw ArchitectureCheckError.unreadableManifest(
                folder, result.stderr.split(separator: "\n").first.map(String.init) ?? "dump-package failed")
        }
        let manifest = try Manifest(folder: folder, json: Data(result.stdout.utf8))
        lock.withLock { manifestCache[folder] = manifest }
        return manifest
    }

    /// The Swift files under a folder relative to the root (none when it does not exist).
    public func sources(under relativePath: String) -> [SourceFile] {
        let base = root.appendingPathComponent(relativePath)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var files: [SourceFile] = []
        for case let url as URL in enumerator {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            // Build folders hold copies of other packages; fixtures break the rules on purpose.
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".build") || $0 == "Fixtures" }) { continue }
            guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files.append(SourceFile(path: relative, text: text))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// A text file relative to the root, if present.
    public func text(_ relativePath: String) -> String? {
        try? String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }
}
