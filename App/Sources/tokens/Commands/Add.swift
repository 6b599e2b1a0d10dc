import ArgumentParser
import Domain
import Foundation
import TerminalUI

/// `tokens add URI…`: add accounts from otpauth:// Key URIs.
struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add accounts from otpauth:// URIs.",
        discussion: """
            All URIs are checked before anything is added. Each account is then saved in its own
            transaction, and "Added …" is printed once it is safely stored.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(
        "The accounts' Key URIs (quote them in the shell); - reads them from standard input, one a line (keeps secrets out of argv and shell history).",
        valueName: "otpauth-uri"))
    var uris: [String]

    func validate() throws {
        if uris.isEmpty { throw ValidationError("give at least one otpauth:// URI") }
    }

    func run() async throws {
        // Validate everything first: bad input adds nothing.
        let uris = try StandardInputURIs.expanding(self.uris)
        let specs = try uris.enumerated().map { index, uri in
            do { return try KeyURI.parse(uri) } catch {
                throw CLIError(uris.count > 1 ? "URI \(index + 1): \(error)" : "\(error)")
            }
        }
        try await global.withContainer { container in
            let add = container.makeAddAccountUseCase()
            for spec in specs {
                let account = try await add.execute(spec, note: "", groups: [])
                CLILog.logger.debug("added account \(account.id) (\(account.kind.typeName))")
                print("Added \(TerminalText.escaped(account.displayName))")
                fflush(nil)
            }
            if container.phase == .dev {
                CommandRunner.printError("note: the DEV phase keeps accounts in memory; they are gone when tokens exits")
            }
        }
    }
}
