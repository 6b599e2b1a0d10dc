import AppComposition
import CommandLineKit
import Foundation

/// `tokens list`: every account with its current code.
struct List: TokensCommand {
    static let spec = CommandSpec(
        "list", abstract: "List accounts with their current codes.",
        arguments: [.flag("json", help: "Print JSON (no secrets) instead of a table."), TimeOption.argument, SyncContext.flag])

    let global: GlobalOptionValues
    let unixTime: Int64?
    let json: Bool
    let sync: Bool

    init(_ arguments: ParsedArguments) throws {
        sync = arguments.flag("sync")
        global = GlobalOptionValues(arguments)
        unixTime = try TimeOption.unixTime(arguments)
        json = arguments.flag("json")
    }

    func run() async throws {
        StandardStreams.write(try await Self.listing(global: global, unixTime: unixTime, json: json, sync: sync))
    }

    /// Every account with its code at `unixTime` (or now), as a table or JSON: what `tokens list`
    /// prints, and `tokens` when its output is not a terminal.
    static func listing(global: GlobalOptionValues, unixTime: Int64?, json: Bool, sync: Bool = false) async throws -> String {
        try await global.withContainer { container, settings in
            if sync { await SyncContext.syncFirst(container, settings: settings) }
            let accounts = try await container.makeListAccountsUseCase().execute()
            let time = await ClockComposer.codeTime(for: container, settings: settings)
            // A sync first said it already, of what it measured; --at needs no clock.
            if !sync, unixTime == nil, let warning = ClockComposer.warning(time.measured, settings: settings) {
                StandardStreams.writeErrorLine("tokens: \(warning)")
            }
            let date = TimeOption.date(unixTime: unixTime, now: time.clock.now())
            let codes = container.makeGenerateCodesUseCase().execute(for: accounts, at: date)
            return json ? try AccountListing.json(accounts, codes) : AccountListing.table(accounts, codes)
        }
    }
}
