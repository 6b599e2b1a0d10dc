import Foundation

/// Rule 17: App's command files parse, call what a container's factory made, and print. They
/// construct no `Default…` type (a use case is built by a `make…` factory of the composition
/// root) and never cast a container to learn what it can do (its capabilities are typed members).
public struct CommandsUseFactories: ArchitectureRule {
    public let number = 17
    public let title = "App's command files construct no Default… type and cast no container"
    static let folder = "App/Sources/tokens"
    static let patterns: [(String, String)] = [
        ("\\bDefault[A-Z]\\w*(\\.init)?\\(", "constructs a Default… type (build it in a make… factory)"),
        ("\\bas[?!]\\s*(any\\s+)?\\w*Container\\b", "casts a container (use its typed capability)"),
    ]
    public init() {}

    public func check(_ repository: Repository) throws -> [Violation] {
        let compiled = try Self.patterns.map { (try NSRegularExpression(pattern: $0.0), $0.1) }
        var violations: [Violation] = []
        for file in repository.sources(under: Self.folder) {
            for (number, text) in file.codeLines {
                for (pattern, what) in compiled where pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    violations.append(Violation("\(file.path):\(number)", what))
                }
            }
        }
        return violations
    }
}
