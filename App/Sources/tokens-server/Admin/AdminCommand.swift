import AppConfiguration
import CommandLineKit
import Foundation
import Logging
import ServerComposition
import SyncServer

/// `tokens-server admin …`: accounts and devices, looked after on the database directly (the
/// same binary, config and phase as the server; it works with every instance stopped).
enum AdminCommand {
    static let json = ArgumentSpec.flag("json", help: "One JSON document on standard output instead of a table.")
    static let account = ArgumentSpec.positional("account", help: "A prefix of the account's id (at least 4 characters).")

    static let spec = CommandSpec(
        "admin", abstract: "Look after accounts and devices, on the database directly (works with the server stopped).",
        discussion: """
            An account is named by a prefix of its id (the tables print 8 characters, the audit log lines too); a device by its name or a prefix of its id. DEV keeps everything in the running server's memory: admin needs --phase alpha or real.
            """,
        subcommands: [
            CommandSpec(
                "accounts",
                abstract: "Every account: created, devices, entries, bytes, last change, last seen, quota; and the server's quota.",
                arguments: [json]),
            CommandSpec("devices", abstract: "An account's devices: name, id, enrolled, last seen, revoked.", arguments: [account, json]),
            CommandSpec(
                "quota",
                abstract: "Show an account's quota, or set it in place of the server's (from its next push on; what it stores stays).",
                arguments: [
                    account, .option("entries", help: "Live entries it may hold, or 'default' for the server's."),
                    .option("mib", help: "MiB of entries it may hold, or 'default' for the server's."), json,
                ]),
            CommandSpec(
                "revoke", abstract: "Revoke a device: its token is refused at once; its machine can join again only with the sync code.",
                arguments: [account, .positional("device", help: "The device's name, or a prefix of its id."), json]),
            CommandSpec(
                "invite",
                abstract: "Print a single-use invitation to open one sync account (where server.signup is invitation).",
                arguments: [.option("days", help: "How long it stays valid (default 7, at most 365)."), json]),
            CommandSpec(
                "delete-account", abstract: "Delete an account and everything stored for it (devices, entries, history, keys), for good.",
                arguments: [account, .flag("yes", help: "Delete it (without it, nothing is changed)."), json]),
        ])

    /// Runs `admin <command>` with `arguments` on the settings' database.
    static func run(_ command: [String], _ arguments: ParsedArguments, settings: ServerSettings, loader: SettingsLoader) async throws {
        guard let url = settings.databaseURL?.value else {
            throw UsageError("DEV keeps everything in the running server's memory: admin needs --phase alpha or real (a database)")
        }
        LogSetup.bootstrap(level: settings.logLevel.source == .default ? .warning : settings.logLevel.value)
        let logger = Logger(label: "tokens.server.admin")
        for warning in UnknownConfigKeys.warnings(inFileAt: loader.configPath ?? loader.defaultConfigPath) {
            logger.warning("\(warning)")
        }
        let days = try arguments.integer("days") ?? Int(SignupPolicy.invitationLifetime / 86_400)
        guard (1...365).contains(days) else { throw UsageError("--days takes 1 to 365") }
        let output = AdminOutput(
            json: arguments.flag("json"),
            quota: StorageQuota(
                entries: settings.quotaEntries.value, bytes: settings.quotaMiB.value * 1024 * 1024))
        let name = command.first ?? ""
        let text = try await AdminComposer.withAdministration(url: url, logger: logger) { admin in
            switch name {
            case "accounts": return try output.accounts(await admin.accounts())
            case "devices":
                let found = try await admin.devices(ofAccount: try arguments.required("account"))
                return try output.devices(found.devices, of: found.account)
            case "revoke":
                let device = try await admin.revoke(device: try arguments.required("device"), ofAccount: try arguments.required("account"))
                return try output.revoked(device)
            case "quota":
                let reference = try arguments.required("account")
                let change = AccountQuotaChange(
                    entries: try Self.quotaPart(arguments.string("entries"), option: "entries", scale: 1),
                    bytes: try Self.quotaPart(arguments.string("mib"), option: "mib", scale: 1024 * 1024))
                guard !change.keepsAll else { return try output.quota(await admin.account(reference)) }
                return try output.quota(await admin.changeQuota(change, ofAccount: reference))
            case "invite":
                let invited = try await admin.invite(validFor: Int64(days) * 24 * 3600)
                return try output.invitation(invited.code, expiresAt: invited.expiresAt, signup: settings.signup.value)
            case "delete-account":
                let reference = try arguments.required("account")
                guard arguments.flag("yes") else {
                    throw UsageError("\(output.describe(try await admin.account(reference))) would be deleted for good: add --yes to do it")
                }
                return try output.deleted(await admin.deleteAccount(reference))
            default: throw UsageError("Unknown command '\(name)'")
            }
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// One part of a quota as typed: absent keeps it, `default` is the server's, else a whole
    /// number (0 to 10^9) times `scale`.
    static func quotaPart(_ text: String?, option: String, scale: Int) throws -> AccountQuotaChange.Part {
        guard let text else { return .keep }
        if text == "default" { return .serverDefault }
        guard let value = Int(text), (0...1_000_000_000).contains(value) else {
            throw UsageError("--\(option) takes a whole number from 0 to 1000000000, or default")
        }
        return .set(value * scale)
    }
}
