import CommandLineKit

/// A command of `tokens`: its declaration (parsing, help, man page and completions all read
/// it) and how it runs once its arguments are read.
protocol TokensCommand: SendableMetatype {
    static var spec: CommandSpec { get }

    /// The command with its arguments; a combination that makes no sense is a `UsageError`.
    init(_ arguments: ParsedArguments) throws

    func run() async throws
}
