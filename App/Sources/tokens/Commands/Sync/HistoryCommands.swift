import CommandLineKit
import Domain
import Foundation
import Presentation
import SyncComposition
import TerminalUI

/// `tokens history [QUERY]`: what changed in each account, when and on which machine, from the
/// earlier versions the sync server keeps (encrypted there, decrypted here).
struct History: TokensCommand {
    static let spec = CommandSpec(
        "history", abstract: "Show what changed in each account, when and on which machine (from the versions the sync server keeps).",
        discussion: """
            The server keeps each version a change replaced (90 days by default), encrypted: it is decrypted here. \
            Secrets are never shown; a changed secret shows as "key". tokens restore ID@VERSION brings a version back.
            """,
        arguments: [
            .positional("query", required: false, help: "Text in the account's issuer or name (in any version), or the start of its id."),
            Sync.caFile,
        ])
    let options: SyncContext.Options
    let query: String
    init(_ arguments: ParsedArguments) {
        options = SyncContext.Options(arguments)
        query = arguments.string("query") ?? ""
    }

    func run() async throws {
        try await Self.withHistory(options) { _, membership, connection, report in
            let shown = report.accounts.filter { $0.matches(query) }
            if shown.isEmpty, !query.isEmpty {
                throw CLIError("no account's history matches \(TerminalText.escaped(query))", status: .noMatch)
            }
            var machines = Dictionary(try await connection.makeRemote(for: membership).devices().map { ($0.id, $0.name) }) { first, _ in
                first
            }
            machines[membership.enrolment.deviceID] = "this machine"
            for line in AccountHistoryText.lines(for: shown, machines: machines, escape: TerminalText.escaped) {
                StandardStreams.writeLine(line)
            }
        }
    }

    /// Runs `body` over one connection to this machine's server, with the accounts' history
    /// read through it (versions that do not open are said on standard error).
    static func withHistory<T>(
        _ options: SyncContext.Options, _ body: (SyncContext, SyncMembership, SyncConnection, AccountHistoryReport) async throws -> T
    ) async throws -> T {
        try await SyncContext.with(options) { context in
            let membership = try await context.membership()
            return try await context.connect(to: membership) { connection in
                let report = try await context.container.makeAccountHistoryUseCase().execute(remote: connection.makeRemote(for: membership))
                if report.unreadable > 0 {
                    StandardStreams.writeErrorLine(
                        "tokens: \(report.unreadable) earlier version\(report.unreadable == 1 ? "" : "s") cannot be opened here (a key this machine never had, or damage): left out"
                    )
                }
                return try await body(context, membership, connection, report)
            }
        }
    }
}

/// `tokens restore ID@VERSION`: an earlier version of an account back, as a new change that
/// syncs like any other; a deleted account comes back.
struct Restore: TokensCommand {
    static let spec = CommandSpec(
        "restore", abstract: "Bring back an earlier version of an account, or a deleted account (ID@VERSION, as tokens history shows it).",
        discussion: "The version's fields come back as a change made here, sent at once; an HOTP counter never goes back.",
        arguments: [
            .positional("version", help: "ID@VERSION from tokens history: the start of the account's id, @, the version."), Sync.caFile,
        ])
    let options: SyncContext.Options
    let reference: String
    init(_ arguments: ParsedArguments) {
        options = SyncContext.Options(arguments)
        reference = arguments.string("version") ?? ""
    }

    func run() async throws {
        guard let (prefix, number) = AccountHistoryText.reference(reference) else {
            throw UsageError("give the version as ID@VERSION, as tokens history shows it (for example 3f2a1b4c@2)")
        }
        try await History.withHistory(options) { context, membership, connection, report in
            let matches = report.accounts.filter { $0.id.uuidString.lowercased().hasPrefix(prefix) }
            guard matches.count == 1 else {
                throw matches.isEmpty
                    ? CLIError("no account's history has the id \(prefix) (tokens history lists them)", status: .noMatch)
                    : CLIError("several accounts' ids start with \(prefix): give more of it", status: .ambiguous)
            }
            let history = matches[0]
            guard let version = history.version(number) else {
                throw CLIError("version \(number) of \(prefix) is not kept (tokens history \(prefix) lists the versions)")
            }
            if version.isCurrent, !version.record.isDeleted.value {
                return StandardStreams.writeLine("\(prefix)@\(number) is the version this machine holds: nothing to restore")
            }
            guard !version.record.isDeleted.value else {
                throw CLIError("\(prefix)@\(number) is the deletion itself: restore the version before it")
            }
            let account = try await context.container.makeRestoreAccountVersionUseCase().execute(version)
            StandardStreams.writeLine(
                "Restored \(TerminalText.escaped(account.displayName)) [\(account.shortID)] as it was in version \(number)")
            do {
                try await context.syncNow(over: connection, membership: membership)
            } catch let error as SyncError {
                StandardStreams.writeErrorLine("tokens: the restore is sent at the next sync: \(SyncStatusText.reason(error))")
            }
        }
    }
}
