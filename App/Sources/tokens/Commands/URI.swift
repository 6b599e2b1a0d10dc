import ArgumentParser
import Domain

/// `tokens uri QUERY`: print an account's Key URI (it contains the secret).
struct URI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uri",
        abstract: "Print the otpauth:// URI of the one account matching QUERY (it contains the secret).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: GlobalOptions.queryHelp)
    var query: String

    func run() async throws {
        let uri = try await global.withContainer { container in
            let account = try await AccountSelection.find(query, in: container)
            return KeyURI.format(try account.spec)
        }
        StandardStreams.writeLine(uri)
    }
}
