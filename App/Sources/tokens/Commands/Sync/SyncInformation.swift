import CommandLineKit
import Domain
import Foundation
import Presentation
import SyncComposition
import TerminalUI

extension Sync {
    /// `tokens sync code`: the sync code another machine joins with.
    struct Code: TokensCommand {
        static let spec = CommandSpec(
            "code",
            abstract: "Show the sync code another machine joins with.",
            discussion: "Whoever has the sync code can join and read every account: treat it like the vault's passphrase.",
            arguments: [.flag("qr", help: "Draw it as a QR code too (to carry it to a machine with a camera).")])
        let global: GlobalOptionValues
        let qr: Bool
        init(_ arguments: ParsedArguments) {
            global = GlobalOptionValues(arguments)
            qr = arguments.flag("qr")
        }

        func run() async throws {
            try await SyncContext.with(global, caFile: nil) { context in
                let text = try await context.membership().code.text
                if qr { StandardStreams.writeLine(try QRText.render(text)) }
                StandardStreams.writeLine(text)
            }
        }
    }

    /// `tokens sync status`: the server, this device, the last sync and what waits to be sent.
    struct Status: TokensCommand {
        static let spec = CommandSpec(
            "status", abstract: "Show the server, this device, the last sync, the changes waiting and the last conflicts.",
            arguments: [.flag("json", help: "Print JSON.")])
        let global: GlobalOptionValues
        let json: Bool
        init(_ arguments: ParsedArguments) {
            global = GlobalOptionValues(arguments)
            json = arguments.flag("json")
        }

        func run() async throws {
            try await SyncContext.with(global, caFile: nil) { context in
                let status = try await context.store.status()
                StandardStreams.write(json ? try Self.json(status) : Self.text(status))
            }
        }

        static func text(_ status: SyncLocalStatus) -> String {
            guard let membership = status.membership else { return "Not syncing (tokens sync init, or tokens sync join)\n" }
            let last = status.lastSync.map { ISO8601DateFormatter().string(from: $0) } ?? "never"
            let conflicts =
                status.conflicts == 0 ? "0" : "\(status.conflicts) at the last sync (a key changed on two machines: both versions kept)"
            var rows = [("server", TerminalText.escaped(membership.server.absoluteString))]
            if status.revoked { rows.append(("revoked", SyncStatusText.reason(.revoked))) }
            if let caFile = membership.caFile { rows.append(("CA file", TerminalText.escaped(caFile))) }
            rows += [
                ("device", membership.enrolment.deviceID.uuidString.lowercased()),
                ("last sync", last), ("pending", String(status.pending)), ("conflicts", conflicts),
            ]
            return rows.map { $0.0.padding(toLength: 11, withPad: " ", startingAt: 0) + $0.1 + "\n" }.joined()
        }

        static func json(_ status: SyncLocalStatus) throws -> String {
            struct Output: Encodable {
                let syncing: Bool
                let server: String?
                let caFile: String?
                let device: String?
                let lastSync: String?
                let pending: Int
                let conflicts: Int
                let revoked: Bool
            }
            let output = Output(
                syncing: status.membership != nil, server: status.membership?.server.absoluteString,
                caFile: status.membership?.caFile, device: status.membership?.enrolment.deviceID.uuidString.lowercased(),
                lastSync: status.lastSync.map { ISO8601DateFormatter().string(from: $0) }, pending: status.pending,
                conflicts: status.conflicts, revoked: status.revoked)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(output), as: UTF8.self) + "\n"
        }
    }

    /// `tokens sync devices`: every machine of the sync account.
    struct Devices: TokensCommand {
        static let spec = CommandSpec("devices", abstract: "List the machines of the sync account.", arguments: [Sync.caFile])
        let options: SyncContext.Options
        init(_ arguments: ParsedArguments) { options = SyncContext.Options(arguments) }

        func run() async throws {
            try await SyncContext.with(options) { context in
                let membership = try await context.membership()
                let devices = try await context.connect(to: membership) { connection in
                    try await connection.makeRemote(for: membership).devices()
                }
                let formatter = ISO8601DateFormatter()
                for device in devices {
                    let state = device.revokedAt.map { "revoked \(formatter.string(from: $0))" } ?? "active"
                    let seen = device.lastSeenAt.map { "last seen \(formatter.string(from: $0))" } ?? "never seen"
                    let this = device.isThisDevice ? "  (this machine)" : ""
                    StandardStreams.writeLine(
                        "\(device.id.uuidString.lowercased())  \(TerminalText.escaped(device.name))  enrolled \(formatter.string(from: device.enrolledAt))  \(seen)  \(state)\(this)"
                    )
                }
            }
        }
    }

    /// `tokens sync leave`: stop syncing this machine.
    struct Leave: TokensCommand {
        static let spec = CommandSpec(
            "leave", abstract: "Stop syncing this machine: revoke it on the server and forget the sync code here.",
            discussion: "The accounts stay in this vault.", arguments: [Sync.caFile])
        let options: SyncContext.Options
        init(_ arguments: ParsedArguments) { options = SyncContext.Options(arguments) }

        func run() async throws {
            try await SyncContext.with(options) { context in
                let membership = try await context.membership()
                let told = try await context.connect(to: membership) { connection in
                    try await context.setup.leave(devices: connection.makeRemote(for: membership))
                }
                StandardStreams.writeLine(
                    told
                        ? "Left the sync account; the accounts stay here"
                        : "Left the sync account here, but the server could not be told: revoke this machine from another one")
            }
        }
    }
}
