/// Where a setting's value came from, in precedence order: a flag beats the environment, which
/// beats the config file, which beats the default.
public enum SettingSource: Hashable, Sendable, CustomStringConvertible {
    case flag(String)
    case environment(String)
    case file(String)
    case `default`

    public var description: String {
        switch self {
        case .flag(let name): "flag \(name)"
        case .environment(let name): "environment \(name)"
        case .file(let path): "config file \(path)"
        case .default: "default"
        }
    }
}

/// A resolved setting and where it came from.
public struct Sourced<Value: Sendable>: Sendable {
    public let value: Value
    public let source: SettingSource

    public init(_ value: Value, from source: SettingSource) {
        self.value = value
        self.source = source
    }
}

// Equatable as an extension, not a requirement on Value: a requirement would make every
// `Sourced<…>` the start-up path instantiates look a conformance up across the whole binary.
extension Sourced: Equatable where Value: Equatable {}
