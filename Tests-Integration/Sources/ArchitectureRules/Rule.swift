/// One broken rule at one place: a file and line, or a manifest edge.
public struct Violation: Hashable, Sendable, CustomStringConvertible {
    public let location: String
    public let detail: String

    public init(_ location: String, _ detail: String) {
        self.location = location
        self.detail = detail
    }

    public var description: String { "\(location): \(detail)" }
}

/// An architecture rule, checked against a repository (the real one or a fixture).
public protocol ArchitectureRule: Sendable {
    var number: Int { get }
    var title: String { get }
    func check(_ repository: Repository) throws -> [Violation]
}

extension ArchitectureRule {
    /// "Rule 3 (Domain sources import only Foundation)".
    public var name: String { "Rule \(number) (\(title))" }
}
