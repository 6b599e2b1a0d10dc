/// What a command line gave a command: every option's values in order, flags, positionals.
public struct ParsedArguments: Sendable, Equatable {
    /// Values by argument key; a flag holds "true" or "false", repeated options all their values.
    public private(set) var values: [String: [String]] = [:]

    public init(_ values: [String: [String]] = [:]) { self.values = values }

    mutating func add(_ value: String, for key: String) { values[key, default: []].append(value) }

    /// The value of an option or positional; given twice, the last one.
    public func string(_ key: String) -> String? { values[key]?.last }

    /// Every value of a repeating positional (or a repeated option), in order.
    public func strings(_ key: String) -> [String] { values[key] ?? [] }

    /// A flag: given or not.
    public func flag(_ key: String) -> Bool { values[key]?.last == "true" }

    /// An invertible flag: true (`--key`), false (`--no-key`) or nil (neither).
    public func invertibleFlag(_ key: String) -> Bool? { values[key]?.last.map { $0 == "true" } }

    /// An option that must be present (a required option): its value, or a usage error.
    public func required(_ key: String) throws(UsageError) -> String {
        guard let value = string(key) else { throw UsageError("Missing expected argument '--\(key)'") }
        return value
    }

    /// A whole-number option, or a usage error naming the option and the bad value.
    public func integer<Number: FixedWidthInteger>(_ key: String, as type: Number.Type = Int.self) throws(UsageError) -> Number? {
        guard let text = string(key) else { return nil }
        guard let number = Number(text) else { throw UsageError("The value '\(text)' is invalid for '--\(key)': give a whole number") }
        return number
    }
}
