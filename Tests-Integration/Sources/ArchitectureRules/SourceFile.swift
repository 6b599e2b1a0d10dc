import Foundation

/// A Swift source file, with its imports and its code lines (comments removed).
public struct SourceFile: Sendable {
    /// One `import` statement.
    public struct Import: Sendable {
        public let module: String
        public let line: Int
    }

    /// The path relative to the repository root.
    public let path: String
    public let imports: [Import]
    /// Line number and text of each line, with `//` comments and block comments blanked.
    public let codeLines: [(number: Int, text: String)]

    public init(path: String, text: String) {
        self.path = path
        var imports: [Import] = []
        var code: [(Int, String)] = []
        var inBlockComment = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(rawLine)
            if inBlockComment {
                guard let end = line.range(of: "*/") else { continue }
                line = String(line[end.upperBound...])
                inBlockComment = false
            }
            if let start = line.range(of: "/*") {
                if let end = line.range(of: "*/", range: start.upperBound..<line.endIndex) {
                    line.removeSubrange(start.lowerBound..<end.upperBound)
                } else {
                    line = String(line[..<start.lowerBound])
                    inBlockComment = true
                }
            }
            if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
            if let module = Self.importedModule(line) { imports.append(Import(module: module, line: index + 1)) }
            code.append((index + 1, line))
        }
        self.imports = imports
        self.codeLines = code
    }

    /// "Foundation" for `import Foundation`, `@testable import Foundation`, `import struct Foundation.Date`.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        while let first = words.first, first.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains(first) {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds: Set = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        return path.split(separator: ".").first.map(String.init)
    }
}
