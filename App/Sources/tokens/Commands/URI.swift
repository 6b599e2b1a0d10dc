import CommandLineKit
import Domain

/// `tokens uri QUERY`: print an account's Key URI (it contains the secret).
struct URI: TokensCommand {
    static let spec = CommandSpec(
        "uri",
        abstract: "Print the otpauth:// URI of the one account matching QUERY (it contains the secret).",
        arguments: [GlobalOptions.query])

    let target: AccountTarget

    init(_ arguments: ParsedArguments) { target = AccountTarget(arguments) }

    func run() async throws {
        let uri = try await target.withAccount { _, account in KeyURI.format(try account.spec) }
        StandardStreams.writeLine(uri)
    }
}
