import Foundation

/// Rule 13: Domain holds rules and plain types. Locks, unsafe pointers and unchecked sendability
/// are speed-ups and concurrency plumbing; they belong behind Domain's ports or in decorators
/// in Data or Presentation.
public struct DomainIsPlain: ArchitectureRule {
    public let number = 13
    public let title = "Domain has no locks, unsafe pointers or @unchecked Sendable"
    static let patterns: [(String, String)] = [
        ("\\b(NSLock|NSRecursiveLock|NSCondition|Mutex|OSAllocatedUnfairLock|pthread_mutex_t|os_unfair_lock)\\b", "a lock"),
        ("\\b(withUnsafe[A-Za-z]*|Unsafe[A-Za-z]*Pointer)\\b", "unsafe pointers"),
        ("@unchecked\\s+Sendable", "@unchecked Sendable"),
    ]
    public init() {}

    public func check(_ repository: Repository) throws -> [Violation] {
        let compiled = try Self.patterns.map { (try NSRegularExpression(pattern: $0.0), $0.1) }
        var violations: [Violation] = []
        for file in repository.sources(under: "Domain/Sources") {
            for (number, text) in file.codeLines {
                for (pattern, name) in compiled
                where pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    violations.append(Violation("\(file.path):\(number)", "uses \(name)"))
                }
            }
        }
        return violations
    }
}
