import AppComposition
import CommandLineKit
import Domain
import Foundation

/// `tokens code QUERY` or `tokens code --uri URI`: print one code, for scripts.
struct Code: TokensCommand {
    static let spec = CommandSpec(
        "code",
        abstract: "Print the current code of the one account matching QUERY.",
        discussion: """
            With --uri, the code comes straight from a Key URI and no store is touched (like \
            oathtool). HOTP accounts advance their counter each time a code is printed.
            """,
        arguments: [
            .positional("query", required: false, help: GlobalOptions.query.help),
            .option(
                "uri", value: "otpauth-uri",
                help: "Compute the code from this otpauth:// URI instead; - reads it from standard input (keeps the secret out of argv)."),
            TimeOption.argument, SyncContext.flag,
        ])

    let global: GlobalOptionValues
    let unixTime: Int64?
    let query: String?
    let uri: String?
    let sync: Bool

    init(_ arguments: ParsedArguments) throws {
        sync = arguments.flag("sync")
        global = GlobalOptionValues(arguments)
        unixTime = try TimeOption.unixTime(arguments)
        query = arguments.string("query")
        uri = arguments.string("uri")
        if query == nil, uri == nil { throw UsageError("give a QUERY or --uri") }
        if query != nil, uri != nil { throw UsageError("give either QUERY or --uri, not both") }
    }

    func run() async throws {
        if let uri {
            StandardStreams.writeLine(try codeFromURI(uri == "-" ? StandardInputURIs.single() : uri))
            return
        }
        let code = try await global.withContainer { container, settings in
            if sync { await SyncContext.syncFirst(container, settings: settings) }
            let account = try await AccountSelection.find(query ?? "", in: container)
            CLILog.logger.debug("code for account \(account.id) (\(account.kind.typeName))")
            let time = await ClockComposer.codeTime(for: container, settings: settings)
            // A sync first said it already, of what it measured; --at needs no clock.
            if !sync, unixTime == nil, let warning = ClockComposer.warning(time.measured, settings: settings) {
                StandardStreams.writeErrorLine("tokens: \(warning)")
            }
            let date = TimeOption.date(unixTime: unixTime, now: time.clock.now())
            return try await container.makeCurrentCodeUseCase().execute(for: account, at: date).code ?? ""
        }
        StandardStreams.writeLine(code)
    }

    private func codeFromURI(_ uri: String) throws -> String {
        AppComposer.makeOTPGenerator().code(
            for: try KeyURI.parse(uri), at: TimeOption.date(unixTime: unixTime, now: AppComposer.makeClock().now()))
    }
}
