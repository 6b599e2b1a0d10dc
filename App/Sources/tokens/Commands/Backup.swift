import AppComposition
import AppConfiguration
import CommandLineKit
import Domain
import Foundation
import TerminalUI

/// `tokens backup`: checked copies of the vault, and checking a copy.
enum Backup {
    static let spec = CommandSpec(
        "backup",
        abstract: "Write a checked copy of the vault; list, check or restore from copies.",
        discussion: """
            A copy is SQLite's online backup of the vault (a consistent snapshot, even while \
            another tokens writes), 0600, named by the time in UTC. It counts only once it has \
            been opened and every account decrypted; a copy that fails is removed and tokens \
            exits with status 7. The copy opens with the passphrase the vault had when it was \
            written.
            """,
        subcommands: [Now.spec, List.spec, Verify.spec, Restore.spec],
        defaultSubcommand: Now.spec.name)

    /// Runs `body` with the phase's unlocked vault, the backups folder (`folder`, else the
    /// phase's setting) and the settings; DEV, which has no vault, is an error.
    static func withVault<T>(
        _ global: GlobalOptionValues, folder: String?, _ body: (any UnlockedVaultContainer, String, AppSettings) throws -> T
    ) async throws -> T {
        try await global.withContainer { container, settings in
            guard let vault = container.unlockedVault?.container, let folder = folder ?? BackupComposer.defaultFolder(for: settings)
            else { throw CompositionError.noVaultInDev }
            return try body(vault, folder, settings)
        }
    }

    /// `tokens backup now`: write and check a copy of the phase's vault.
    struct Now: TokensCommand {
        static let spec = CommandSpec(
            "now", abstract: "Write a copy of the vault into the backups folder and check it.",
            discussion: """
                With --if-changed (what the systemd timer make install ships runs), nothing is \
                written when the newest copy already holds the vault as it is and is less than a \
                day old: a burst of changes gets one copy once it settles, and an unchanged vault \
                one a day.
                """,
            arguments: [
                .option(
                    "to", value: "folder",
                    help: "The folder to write into (made 0700 if missing; default: backups beside the vault)."),
                .flag("if-changed", help: "Write only when the vault changed since the newest copy, or that copy is a day old."),
            ])

        let global: GlobalOptionValues
        let folder: String?
        let ifChanged: Bool

        init(_ arguments: ParsedArguments) throws {
            global = GlobalOptionValues(arguments)
            folder = arguments.string("to")
            ifChanged = arguments.flag("if-changed")
            if folder?.isEmpty == true { throw UsageError("--to needs a folder") }
        }

        func run() async throws {
            let outcome = try await Backup.withVault(global, folder: folder) { vault, into, settings -> Outcome in
                let now = vault.clock.now()
                if ifChanged, let newest = BackupComposer.copies(in: into).last,
                    BackupSchedule.isUnchanged(newest: newest.written, now: now, holdsCurrent: { vault.isCurrent(backupAt: newest.path) })
                {
                    return .unchanged(newest)
                }
                let report = try vault.backUp(into: into)
                // The retention keeps the phase's own folder; a folder given once is left as it is.
                if folder == nil { BackupComposer.prune(into, retention: BackupComposer.retention(settings), now: now) }
                return .written(report)
            }
            switch outcome {
            case .written(let report):
                StandardStreams.writeLine(
                    "Backed up \(Self.count(report.accounts)) to \(TerminalText.escaped(report.path)) (\(report.bytes) bytes, checked)")
            case .unchanged(let newest):
                StandardStreams.writeLine(
                    "Unchanged since the newest backup, \(TerminalText.escaped(newest.path)): nothing written")
            }
        }

        /// What `run` did: a copy written, or none, the newest one holding the vault already.
        enum Outcome {
            case written(VaultBackupReport)
            case unchanged(BackupCopy)
        }

        static func count(_ accounts: Int) -> String { accounts == 1 ? "1 account" : "\(accounts) accounts" }
    }

    /// `tokens backup verify FILE`: check a copy without changing it or the vault.
    struct Verify: TokensCommand {
        static let spec = CommandSpec(
            "verify", abstract: "Check a backup: it opens, and every account in it decrypts. Nothing is written.",
            discussion: """
                Asks the passphrase the vault had when the copy was written (--passphrase-file or \
                TOKENS_PASSPHRASE for scripts). No vault is needed.
                """,
            arguments: [.positional("file", help: "The backup to check.")])

        let global: GlobalOptionValues
        let file: String

        init(_ arguments: ParsedArguments) throws {
            global = GlobalOptionValues(arguments)
            file = try arguments.required("file")
        }

        func run() async throws {
            guard FileManager.default.fileExists(atPath: file) else { throw CLIError("no file at \(file)") }
            let passphrase = try global.passphraseReader.passphrase(prompt: "Passphrase of the backup: ")
            let report = try BackupComposer.verify(at: file, passphrase: passphrase)
            StandardStreams.writeLine("\(TerminalText.escaped(report.path)): \(Now.count(report.accounts)), \(report.bytes) bytes, checked")
        }
    }
}
