import AppComposition
import CommandLineKit
import Foundation
import TerminalUI

/// `tokens doctor`: a line for each part of this machine's Tokens (the vault, its backups,
/// the keyring, sync), and a status scripts can use.
struct Doctor: TokensCommand {
    static let spec = CommandSpec(
        "doctor", abstract: "Check the vault, its backups, the keyring and sync: a line each.",
        discussion: """
            Each line is ok, warn (works, needs attention), fail, or off (not set up). Exits \
            with status 1 when any line is warn or fail. A vault that does not open is its own \
            error and status, as for every command. Nothing is written and no server is contacted.
            """,
        arguments: [.flag("json", help: "Print the checks as JSON, for scripts.")])

    let global: GlobalOptionValues
    let json: Bool

    init(_ arguments: ParsedArguments) {
        global = GlobalOptionValues(arguments)
        json = arguments.flag("json")
    }

    func run() async throws {
        let checks = try await global.withContainer { container, settings in
            await DoctorComposer.checks(of: container, settings: settings)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted]
            StandardStreams.writeLine(String(decoding: try encoder.encode(checks), as: UTF8.self))
        } else {
            let width = checks.map(\.check.count).max() ?? 0
            for check in checks {
                let name = check.check.padding(toLength: width, withPad: " ", startingAt: 0)
                let status = check.status.rawValue.padding(toLength: 4, withPad: " ", startingAt: 0)
                StandardStreams.writeLine("\(name)  \(status)  \(TerminalText.escaped(check.detail))")
            }
        }
        let attention = checks.count { $0.status == .warn || $0.status == .fail }
        if attention > 0 { throw CLIError("\(attention == 1 ? "1 check needs" : "\(attention) checks need") attention") }
    }
}
