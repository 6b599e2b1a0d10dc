import AppComposition
import AppConfiguration
import CommandLineKit
import Domain
import Foundation
import Presentation
import SyncComposition
import TerminalUI

/// What every `tokens sync` command works with: the unlocked vault's sync store, and a
/// connection to the server that is always closed. Sync errors become one line and status 6.
struct SyncContext {
    let container: any UnlockedVaultContainer
    let store: any SyncLocalStore & SyncMembershipStore
    let caFile: String?
    /// The clock's warning limit and `codes.offset`, for what a sync measures.
    let settings: AppSettings
    /// Each request's limit.
    static let timeout: Duration = .seconds(30)

    /// The values every networked sync command reads: the global options and `--ca-file`.
    struct Options {
        let global: GlobalOptionValues
        let caFile: String?

        init(_ arguments: ParsedArguments) {
            global = GlobalOptionValues(arguments)
            // Absolute, so the path remembered at init or join means the same file from any folder.
            caFile = arguments.string("ca-file").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        }
    }

    /// Runs `body` with the vault of the chosen phase (ALPHA or REAL: DEV keeps nothing to sync).
    static func with<T>(_ options: Options, _ body: (SyncContext) async throws -> T) async throws -> T {
        try await with(options.global, caFile: options.caFile, body)
    }

    static func with<T>(_ global: GlobalOptionValues, caFile: String?, _ body: (SyncContext) async throws -> T) async throws -> T {
        try await global.withContainer { container, settings in
            guard let vault = container.unlockedVault?.container else {
                throw CLIError("sync needs a vault: the DEV phase keeps everything in memory (use --phase alpha or real)")
            }
            let context = SyncContext(
                container: vault, store: vault.syncStore, caFile: caFile ?? settings.sync.caFilePath, settings: settings)
            return try await mappingSyncErrors { try await body(context) }
        }
    }

    /// This machine's membership; `.notSetUp` when it has none.
    func membership() async throws -> SyncMembership {
        guard let membership = try await store.membership() else { throw SyncError.notSetUp }
        return membership
    }

    var setup: SyncSetupUseCase {
        SyncComposer.makeSetupUseCase(store: store, random: container.random, clock: container.clock)
    }

    /// Sync rounds of this machine, following the account's key.
    var round: SyncRoundUseCase { SyncComposer.makeRoundUseCase(store: store, random: container.random) }

    /// The sync key's use cases (revocation).
    var keys: SyncKeyUseCase { SyncComposer.makeKeyUseCase(store: store, random: container.random) }

    /// Runs `body` with a connection to `server`, trusting `caFile` (the one given, else the one
    /// remembered with the membership, else the system's CAs).
    func connect<T>(_ server: URL, caFile remembered: String? = nil, _ body: (SyncConnection) async throws -> T) async throws -> T {
        try await SyncConnection.with(server: server, caFile: caFile ?? remembered, timeout: Self.timeout, clock: container.clock, body)
    }

    /// Runs `body` with a connection to this machine's server.
    func connect<T>(to membership: SyncMembership, _ body: (SyncConnection) async throws -> T) async throws -> T {
        try await connect(membership.server, caFile: membership.caFile, body)
    }

    /// Syncs once over `connection`; the round's notices go to standard error.
    func sync(over connection: SyncConnection, membership: SyncMembership) async throws -> SyncReport {
        let report = try await round.run(membership, over: connection)
        for notice in SyncStatusText.notices(for: report) { StandardStreams.writeErrorLine("tokens: \(notice)") }
        if let warning = ClockComposer.warning(report.clockOffset, settings: settings) {
            StandardStreams.writeErrorLine("tokens: \(warning)")
        }
        return report
    }

    /// Syncs now over `connection` and prints what happened.
    func syncNow(over connection: SyncConnection, membership: SyncMembership) async throws {
        let report = try await sync(over: connection, membership: membership)
        StandardStreams.writeLine(
            "Synced with \(TerminalText.escaped(membership.server.absoluteString)): \(report.received) received, \(report.sent) sent")
    }

    /// Says what a sync over `connection` would receive, send and merge; changes nothing.
    func preview(over connection: SyncConnection, membership: SyncMembership) async throws {
        let preview = try await SyncComposer.makeSyncUseCase(store: store, remote: connection.makeRemote(for: membership)).preview()
        for notice in SyncPreviewText.notices(for: preview) { StandardStreams.writeErrorLine("tokens: \(notice)") }
        StandardStreams.writeLine(
            "Dry run with \(TerminalText.escaped(membership.server.absoluteString)): nothing was changed here or on the server")
        for line in SyncPreviewText.lines(for: preview, escape: TerminalText.escaped) { StandardStreams.writeLine(line) }
    }

    /// A SyncError as the command line reports it: its reason, exit status 6.
    static func mappingSyncErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SyncError {
            throw CLIError(SyncStatusText.reason(error), status: .syncFailed)
        }
    }

    /// This machine's name for the device list (the host name by default), checked by the rule
    /// the server applies.
    static func deviceName(_ given: String?) throws -> String {
        let name = (given ?? ProcessInfo.processInfo.hostName).trimmingCharacters(in: .whitespacesAndNewlines)
        do { try DeviceNameRule.check(name) } catch { throw CLIError("--name: \(error)") }
        return name
    }

    /// `--sync` on a one-shot command: one sync before it reads, when the vault syncs. A
    /// failure is a warning (the command goes on with this machine's accounts), never an error.
    static let flag = ArgumentSpec.flag("sync", help: "Sync with the server first (a failure only warns).")

    static func syncFirst(_ container: any AppContainer, settings: AppSettings) async {
        guard let vault = container.unlockedVault?.container else {
            return StandardStreams.writeErrorLine("tokens: --sync: the DEV phase keeps everything in memory; nothing to sync")
        }
        let context = SyncContext(container: vault, store: vault.syncStore, caFile: settings.sync.caFilePath, settings: settings)
        do {
            let membership = try await context.membership()
            try await context.connect(to: membership) { _ = try await context.sync(over: $0, membership: membership) }
        } catch let error as SyncError {
            StandardStreams.writeErrorLine("tokens: --sync: \(SyncStatusText.reason(error)); showing this machine's accounts")
        } catch {
            StandardStreams.writeErrorLine("tokens: --sync: \(FailureText.sentence(for: error)); showing this machine's accounts")
        }
    }
}
