import ArgumentParser
import Foundation
import TerminalUI

/// `tokens rm QUERY`: delete an account, after confirmation.
struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete the one account matching QUERY (asks to confirm).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: GlobalOptions.queryHelp)
    var query: String

    @Flag(name: [.customShort("y"), .long], help: "Delete without asking (for scripts).")
    var yes = false

    func run() async throws {
        let removed = try await global.withContainer { container in
            let account = try await AccountSelection.find(query, in: container)
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
