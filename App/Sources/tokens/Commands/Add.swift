import ArgumentParser
import Foundation

/// `tokens add URI`: add an account from an otpauth:// Key URI.
struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add an account from an otpauth:// URI.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The account's Key URI (quote it in the shell).", valueName: "otpauth-uri"))
    var uri: String

    func run() async throws {
        let container = try await global.container()
        let account = try await container.makeAddAccountUseCase().execute(uri: uri)
        print("Added \(account.displayName)")
        if container.phase == .dev {
            CommandRunner.printError("note: the DEV phase keeps accounts in memory; this one is gone when tokens exits")
        }
    }
}
