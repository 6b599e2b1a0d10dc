import AppComposition
import ArgumentParser
import Foundation
import TerminalUI

/// `tokens` on its own: the live, interactive account list; a plain listing when not on a terminal.
struct Interactive: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the live account list (the default command).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let listing: String? = try await global.withContainer { container in
            guard Terminal.isInteractive else {
                let accounts = try await container.makeListAccountsUseCase().execute()
                let codes = container.makeGenerateCodesUseCase().execute(for: accounts, at: container.clock.now())
                return AccountListing.table(accounts, codes)
            }
            await Self.runScreen(container)
            return nil
        }
        if let listing { print(listing, terminator: "") }
    }

    @MainActor
    private static func runScreen(_ container: any AppContainer) async {
        let screen = AccountListScreen(
            viewModel: container.makeAccountListViewModel(),
            style: Style.fromEnvironment(ProcessInfo.processInfo.environment))
        await screen.run()
    }
}
