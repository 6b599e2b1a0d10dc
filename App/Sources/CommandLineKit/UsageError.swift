/// A command line that does not fit its command: one line saying what is wrong.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension UsageError {
    /// A word where `command` expects one of its subcommands, with the nearest one when it looks
    /// like a typo (`tokens lsit`: did you mean 'list'?).
    static func unknownCommand(_ word: String, among command: CommandSpec) -> UsageError {
        let hint = NearestName.of(word, among: command.subcommands.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
        return UsageError("Unknown command '\(word)'\(hint)")
    }
}
