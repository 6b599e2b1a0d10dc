import CommandLineKit
import Foundation
import TerminalUI

/// `tokens rm QUERY`: delete an account, after confirmation.
struct Remove: TokensCommand {
    static let spec = CommandSpec(
        "rm", abstract: "Delete the one account matching QUERY (asks to confirm).",
        arguments: [GlobalOptions.query, .flag("yes", short: "y", help: "Delete without asking (for scripts).")])

    let target: AccountTarget
    let yes: Bool

    init(_ arguments: ParsedArguments) {
        target = AccountTarget(arguments)
        yes = arguments.flag("yes")
    }

    func run() async throws {
        let removed = try await target.withAccount { container, account in
            if !yes {
                guard Terminal.isInteractive else {
                    throw CLIError("not deleting \(account.displayName) without confirmation: pass --yes")
                }
                StandardStreams.write("Delete \(TerminalText.escaped(account.displayName))? Its codes cannot be recovered. [y/N] ")
                fflush(nil)
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                    throw CLIError("not deleted")
                }
            }
            try await container.makeDeleteAccountUseCase().execute(id: account.id)
            return account.displayName
        }
        StandardStreams.writeLine("Deleted \(TerminalText.escaped(removed))")
    }
}
