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
        StandardStreams.write(try await Self.listing(global: global, unixTime: time.unixTime, json: json))
    }

    /// Every account with its code at `unixTime` (or now), as a table or JSON: what `tokens list`
    /// prints, and `tokens` when its output is not a terminal.
    static func listing(global: GlobalOptions, unixTime: Int64?, json: Bool) async throws -> String {
        try await global.withContainer { container in
            let accounts = try await container.makeListAccountsUseCase().execute()
            let date = TimeOption.date(unixTime: unixTime, now: container.clock.now())
            let codes = container.makeGenerateCodesUseCase().execute(for: accounts, at: date)
            return json ? try AccountListing.json(accounts, codes) : AccountListing.table(accounts, codes)
        }
    }
}
