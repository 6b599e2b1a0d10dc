import Foundation

/// Rule 12: a process is ended only by the pid or process group that we started, never by name.
/// The tools in `patterns` find processes by name, matching whole command lines: in a Makefile
/// recipe that matches (and ends) the recipe's own shell, and on a shared machine every other
/// user's or checkout's processes whose command line holds the name.
public struct NoKillByName: ArchitectureRule {
    public let number = 12
    public let title = "processes are ended by pid or process group, never by name"
    /// Files that run commands: the Makefile, CI, shell scripts, Swift (which can spawn them).
    static let scriptNames: Set<String> = ["Makefile", "run"]
    static let scriptExtensions: Set<String> = ["sh", "bash", "mk", "swift", "py"]
    // The tools that find processes by name. (The character classes keep this file from
    // matching its own patterns.)
    static let patterns = ["\\bpk[i]ll\\b", "\\bkill[a]ll\\b", "\\bpgr[e]p\\b"]
    public init() {}

    public func check(_ repository: Repository) throws -> [Violation] {
        let compiled = try Self.patterns.map { try NSRegularExpression(pattern: $0) }
        var violations: [Violation] = []
        for (path, lines) in Self.scripts(in: repository) {
            for (number, text) in lines {
                if compiled.contains(where: { $0.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }) {
                    violations.append(
                        Violation("\(path):\(number)", "finds processes by name to end them; end the pid or process group you started"))
                }
            }
        }
        return violations
    }

    /// Every script-like file with its code lines (comments blanked), sorted by path.
    static func scripts(in repository: Repository) -> [(path: String, lines: [(number: Int, text: String)])] {
        let root = repository.root.standardizedFileURL
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, [(Int, String)])] = []
        for case let url as URL in enumerator {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
            let parts = relative.split(separator: "/")
            // Build folders hold other packages; git's own files and the fixtures are not ours to run.
            if parts.contains(where: { $0.hasPrefix(".build") || $0 == ".git" || $0 == "Fixtures" }) {
                enumerator.skipDescendants()
                continue
            }
            guard Self.scriptNames.contains(url.lastPathComponent) || Self.scriptExtensions.contains(url.pathExtension),
                let text = try? String(contentsOf: url, encoding: .utf8)
            else { continue }
            let lines =
                url.pathExtension == "swift"
                ? SourceFile(path: relative, text: text).codeLines
                : text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
                    (index + 1, line.trimmingCharacters(in: .whitespaces).hasPrefix("#") ? "" : String(line))
                }
            found.append((relative, lines))
        }
        return found.sorted { $0.0 < $1.0 }
    }
}
