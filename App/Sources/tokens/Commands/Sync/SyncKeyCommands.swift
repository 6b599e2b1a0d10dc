import CommandLineKit
import Domain
import Foundation
import Presentation
import SyncComposition
import TerminalUI

extension Sync {
    /// `tokens sync revoke DEVICE`: a lost machine's token stops working, and the sync key is
    /// replaced so that it reads nothing new and its copy of the sync code opens nothing.
    struct Revoke: TokensCommand {
        static let spec = CommandSpec(
            "revoke", abstract: "Revoke another machine and replace the sync key: it reads nothing new, its sync code opens nothing.",
            discussion: """
                The new key reaches the other machines wrapped to each one's own device key (the server never sees it); \
                tokens sync code then shows the new code. A revoked machine keeps what it had: change the accounts' \
                secrets if it was stolen. To stop syncing this machine, use tokens sync leave.
                """,
            arguments: [
                .positional("device", help: "The device's name, its id, or the start of the id (tokens sync devices lists them)."),
                Sync.caFile,
            ])
        let options: SyncContext.Options
        let device: String
        init(_ arguments: ParsedArguments) {
            options = SyncContext.Options(arguments)
            device = arguments.string("device") ?? ""
        }

        func run() async throws {
            try await SyncContext.with(options) { context in
                let membership = try await context.membership()
                try await context.connect(to: membership) { connection in
                    let remote = connection.makeRemote(for: membership)
                    let target = try Self.match(device, in: try await remote.devices())
                    guard !target.isThisDevice else {
                        throw CLIError(
                            "\(TerminalText.escaped(target.name)) is this machine: to stop syncing it, run tokens sync leave",
                            status: .usage)
                    }
                    guard target.revokedAt == nil else { throw CLIError("\(TerminalText.escaped(target.name)) is revoked already") }
                    let report = try await context.keys.revoke(target.id, remote: remote)
                    StandardStreams.writeLine("Revoked \(TerminalText.escaped(target.name)) (\(target.id.uuidString.lowercased()))")
                    try await Rekey.finish(report, context: context, over: connection)
                }
            }
        }

        /// The one device `query` names: its exact name (any case), or the start of its id.
        static func match(_ query: String, in devices: [EnrolledDevice]) throws -> EnrolledDevice {
            let prefix = query.lowercased()
            guard !prefix.isEmpty else { throw CLIError("name the device to revoke (tokens sync devices lists them)", status: .usage) }
            let byName = devices.filter { $0.name.lowercased() == prefix }
            let active = byName.filter { $0.revokedAt == nil }
            let matches =
                active.count == 1 ? active : byName.isEmpty ? devices.filter { $0.id.uuidString.lowercased().hasPrefix(prefix) } : byName
            guard matches.count == 1 else {
                throw CLIError(
                    matches.isEmpty
                        ? "no device matches \(TerminalText.escaped(query)) (tokens sync devices lists them)"
                        : "several devices match \(TerminalText.escaped(query)): give more of its id")
            }
            return matches[0]
        }
    }

    /// `tokens sync rekey`: replace the sync key without revoking anyone (after `passwd`, or
    /// when the code may have been seen).
    struct Rekey: TokensCommand {
        static let spec = CommandSpec(
            "rekey", abstract: "Replace the sync key (the old sync code then opens nothing new); no machine is revoked.",
            discussion: "tokens passwd does this by itself when the server can be reached.", arguments: [Sync.caFile])
        let options: SyncContext.Options
        init(_ arguments: ParsedArguments) { options = SyncContext.Options(arguments) }

        func run() async throws {
            try await SyncContext.with(options) { context in
                try await Self.rekey(context)
            }
        }

        /// Replaces the key over a new connection and says what happened.
        static func rekey(_ context: SyncContext) async throws {
            let membership = try await context.membership()
            try await context.connect(to: membership) { connection in
                let report = try await context.keys.rotate(remote: connection.makeRemote(for: membership))
                try await finish(report, context: context, over: connection)
            }
        }

        /// Says what a rotation did, and sends every entry again under the new key.
        static func finish(_ report: KeyRotationReport, context: SyncContext, over connection: SyncConnection) async throws {
            StandardStreams.writeLine(
                "The sync key was replaced (version \(report.version)) and shared with \(report.sharedWith) machine\(report.sharedWith == 1 ? "" : "s"); tokens sync code shows the new code"
            )
            if !report.notShared.isEmpty {
                StandardStreams.writeErrorLine(
                    "tokens: \(report.notShared.count) machine\(report.notShared.count == 1 ? " has" : "s have") no device key (an older Tokens that has not synced since): join again there with the new code"
                )
            }
            do {
                _ = try await context.sync(over: connection, membership: try await context.membership())
            } catch let error as SyncError {
                StandardStreams.writeErrorLine(
                    "tokens: the entries are sent again under the new key at the next sync: \(SyncStatusText.reason(error))")
            }
        }
    }
}
