import AppComposition
import ArgumentParser
import Domain
import Foundation
import Presentation
import TerminalUI

/// `tokens` on its own: the interactive app (Unlock, list, add…); a plain listing when not on a terminal.
struct Interactive: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the interactive account list (the default command).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        guard Terminal.isInteractive else {
            let listing = try await global.withContainer { container in
                let accounts = try await container.makeListAccountsUseCase().execute()
                let codes = container.makeGenerateCodesUseCase().execute(for: accounts, at: container.clock.now())
                return AccountListing.table(accounts, codes)
            }
            print(listing, terminator: "")
            return
        }
        let settings = try await global.settings()
        let (container, lock) = try AppComposer.makeInteractiveContainer(for: settings)
        await Self.runScreen(container, lock: lock, settings: settings)
        await lock.lock()
    }

    @MainActor
    private static func runScreen(_ container: any AppContainer, lock: any AccountStoreLock, settings: AppSettings) async {
        let screens = ScreenContainer(
            container: container, lock: lock, clipboard: OSC52Clipboard(),
            options: .init(
                nextCodeWindow: settings.nextCodeSeconds.value,
                clipboardTimeout: .seconds(settings.clipboardClearSeconds.value)))
        let screen = AppScreen(
            router: screens.makeRouter(idleTimeout: .seconds(settings.idleLockSeconds.value)),
            style: Style.fromEnvironment(ProcessInfo.processInfo.environment))
        await screen.run()
    }
}
