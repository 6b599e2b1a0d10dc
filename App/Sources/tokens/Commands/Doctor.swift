import AppComposition
import CommandLineKit
import Domain
import Foundation
import SyncComposition
import TerminalUI

/// `tokens doctor`: a line for each part of this machine's Tokens (the vault, its backups,
/// the keyring, sync, the sync server, the clock), and a status scripts can use.
struct Doctor: TokensCommand {
    static let spec = CommandSpec(
        "doctor", abstract: "Check the vault, its backups, the keyring, sync, the server and the clock: a line each.",
        discussion: """
            Each line is ok, warn (works, needs attention), fail, or off (not set up). Exits \
            with status 1 when any line is warn or fail. A vault that does not open is its own \
            error and status, as for every command. Nothing is written. A vault that syncs asks \
            its server once whether it answers, and its time (no token is sent), unless --offline.
            """,
        arguments: [
            .flag("json", help: "Print the checks as JSON, for scripts."),
            .flag("offline", help: "Contact no server: the clock is judged by the last sync's measurement."),
        ])

    let global: GlobalOptionValues
    let json: Bool
    let offline: Bool

    init(_ arguments: ParsedArguments) {
        global = GlobalOptionValues(arguments)
        json = arguments.flag("json")
        offline = arguments.flag("offline")
    }

    /// Each request's limit: a doctor that waits 30 s for a dead server helps no one.
    static let timeout: Duration = .seconds(10)

    /// Asks a membership's server for its liveness answer over a connection of its own, trusting
    /// `caFile` (else the one remembered with the membership), timed on `clock`.
    static func contact(clock: any WallClock, caFile: String?) -> DoctorComposer.ServerContact {
        { membership in
            do {
                let report = try await SyncConnection.with(
                    server: membership.server, caFile: caFile ?? membership.caFile, timeout: timeout
                ) { connection in try await connection.makeHealth(clock: clock).check() }
                return .success(report)
            } catch let error as SyncError {
                return .failure(error)
            } catch {
                return .failure(.offline)
            }
        }
    }

    func run() async throws {
        let offline = offline
        let checks = try await global.withContainer { container, settings in
            await DoctorComposer.checks(
                of: container, settings: settings,
                server: offline ? nil : Self.contact(clock: container.clock, caFile: settings.sync.caFilePath))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted]
            // A detail may quote the server (its version): no control reaches the terminal raw.
            StandardStreams.writeLine(AccountListing.escapingControls(String(decoding: try encoder.encode(checks), as: UTF8.self)))
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
