import Foundation

/// Rule 13: Domain holds rules and plain types. Locks, unsafe pointers and unchecked sendability
/// are speed-ups and concurrency plumbing; files, the process's environment and the network are
/// the outside world: all belong behind Domain's ports, in Data, Presentation or App.
public struct DomainIsPlain: ArchitectureRule {
    public let number = 13
    public let title = "Domain has no locks, unsafe pointers, @unchecked Sendable, files, environment or network"
    static let patterns: [(String, String)] = [
        ("\\b(NSLock|NSRecursiveLock|NSCondition|Mutex|OSAllocatedUnfairLock|pthread_mutex_t|os_unfair_lock)\\b", "a lock"),
        ("\\b(withUnsafe[A-Za-z]*|Unsafe[A-Za-z]*Pointer)\\b", "unsafe pointers"),
        ("@unchecked\\s+Sendable", "@unchecked Sendable"),
        ("\\b(ProcessInfo|Bundle\\.main)\\b|\\b(getenv|setenv)\\(|\\bProcess\\(\\)", "the process or its environment"),
        ("\\b(FileManager|FileHandle)\\b|\\b(Data|String)\\(contentsOf(File)?:|\\.write\\(to(File)?:|\\bfopen\\(", "the file system"),
        ("\\b(URLSession|URLRequest)\\b", "the network"),
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
