import ArgumentParser
import Foundation

/// `tokens list`: every account with its current code.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List accounts with their current codes.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var time: TimeOption

    @Flag(help: "Print JSON (no secrets) instead of a table.")
    var json = false

    func run() async throws {
        let output = try await global.withContainer { container in
            let accounts = try await container.makeListAccountsUseCase().execute()
            let codes = container.makeGenerateCodesUseCase().execute(for: accounts, at: time.date(now: container.clock.now()))
            return json ? try AccountListing.json(accounts, codes) : AccountListing.table(accounts, codes)
        }
        StandardStreams.write(output)
    }
}
