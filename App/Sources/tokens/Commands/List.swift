import ArgumentParser
import Foundation

/// `tokens list`: every account with its current code.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List accounts with their current codes.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var time: TimeOption

    @Flag(help: "Print JSON (no secrets) instead of a table.")
    var json = false

    func run() async throws {
        let container = try await global.container()
        let accounts = try await container.makeListAccountsUseCase().execute()
        let date = time.date(now: container.clock.now())
        let codes = container.makeGenerateCodesUseCase().execute(for: accounts, at: date)
        print(json ? try AccountListing.json(accounts, codes) : AccountListing.table(accounts, codes), terminator: "")
    }
}
