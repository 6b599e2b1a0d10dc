import Foundation

/// Rule 7: only App constructs Data's concrete types; everything else sees Domain's ports.
public struct OnlyAppConstructsData: ArchitectureRule {
    public let number = 7
    public let title = "only App constructs Data's concrete types"
    /// Where construction is checked: every layer but Data itself and App.
    static let checkedFolders = ["Domain", "Presentation", "Tests-Integration/Sources", "Tests-Integration/Tests"]
    public init() {}

    public func check(_ repository: Repository) throws -> [Violation] {
        let types = Self.concreteTypes(in: repository.sources(under: "Data/Sources"))
        guard !types.isEmpty else { return [] }
        let names = types.sorted().joined(separator: "|")
        // `Name(`, `Name.init`, and an inferred `.init` after a type annotation: `x: Name = .init(`.
        let pattern = try NSRegularExpression(
            pattern: "\\b(\(names))\\s*(\\(|\\.init\\b)|:\\s*(\(names))\\??\\s*=\\s*\\.init\\b")
        var violations: [Violation] = []
        for folder in Self.checkedFolders {
            for file in repository.sources(under: folder) {
                for (number, text) in file.codeLines {
                    let range = NSRange(text.startIndex..., in: text)
                    for match in pattern.matches(in: text, range: range) {
                        let group = match.range(at: 1).location != NSNotFound ? 1 : 3
                        let name = (text as NSString).substring(with: match.range(at: group))
                        violations.append(Violation("\(file.path):\(number)", "constructs DataLayer.\(name)"))
                    }
                }
            }
        }
        return violations
    }

    /// Public structs, classes and actors Data declares.
    static func concreteTypes(in files: [SourceFile]) -> Set<String> {
        let declaration = try! NSRegularExpression(
            pattern: "\\bpublic\\s+(?:final\\s+)?(?:struct|class|actor)\\s+([A-Za-z_][A-Za-z0-9_]*)")
        var names = Set<String>()
        for file in files {
            for (_, text) in file.codeLines {
                for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    names.insert((text as NSString).substring(with: match.range(at: 1)))
                }
            }
        }
        return names
    }
}

/// Rule 8: Domain and Presentation never read the clock or randomness themselves.
public struct NoAmbientClockOrRandomness: ArchitectureRule {
    public let number = 8
    public let title = "no Date(), Date.now or random calls in Domain or Presentation"
    static let folders = ["Domain/Sources", "Presentation/Sources"]
    static let patterns: [(String, String)] = [
        ("\\bDate(\\.init)?\\(\\s*\\)", "Date()"), (":\\s*Date\\??\\s*=\\s*\\.init\\(\\s*\\)", "Date()"),
        ("\\bDate(\\.init)?\\(\\s*timeIntervalSinceNow\\b", "Date(timeIntervalSinceNow:)"),
        ("\\bDate\\.now\\b", "Date.now"), ("\\.random\\(", ".random("),
        ("\\b(DispatchTime\\.now|CFAbsoluteTimeGetCurrent|clock_gettime|gettimeofday)\\b", "the system time"),
        ("\\bSystemRandomNumberGenerator\\b", "SystemRandomNumberGenerator"), ("\\bUUID(\\.init)?\\(\\s*\\)", "UUID()"),
        ("\\barc4random", "arc4random"), ("\\b(Continuous|Suspending)Clock\\(\\s*\\)", "a system clock"),
    ]
    public init() {}

    public func check(_ repository: Repository) throws -> [Violation] {
        let compiled = try Self.patterns.map { (try NSRegularExpression(pattern: $0.0), $0.1) }
        var violations: [Violation] = []
        for folder in Self.folders {
            for file in repository.sources(under: folder) {
                for (number, text) in file.codeLines {
                    for (pattern, name) in compiled
                    where pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                        violations.append(Violation("\(file.path):\(number)", "calls \(name) (inject a Clock or RandomSource)"))
                    }
                }
            }
        }
        return violations
    }
}
