import AppComposition
import CommandLineKit
import Domain
import Foundation
import TerminalUI

extension Backup {
    /// `tokens backup restore FILE`: bring accounts back from a checked copy, after showing what
    /// would change.
    struct Restore: TokensCommand {
        static let spec = CommandSpec(
            "restore", abstract: "Bring accounts back from a backup: shows what would change, then asks.",
            discussion: """
                The copy is checked first, as tokens backup verify checks it. The restore merges \
                as a machine that was offline since the backup would: accounts gone from the vault \
                come back (with their ids, so a vault that syncs sends them), an account edited \
                here since is kept as it is here, and nothing is deleted. A copy written under \
                another passphrase (before tokens passwd) takes it from --backup-passphrase-file or \
                TOKENS_BACKUP_PASSPHRASE, else asks for it on the terminal.
                """,
            arguments: [
                .positional("file", help: "The backup to restore from."),
                .option(
                    "backup-passphrase-file", value: "file",
                    help: "The passphrase the copy was written under, when it is not the vault's (first line of FILE)."),
                .flag("dry-run", help: "Show what would change and write nothing."),
                .flag("yes", short: "y", help: "Restore without asking (for scripts)."),
            ])

        let global: GlobalOptionValues
        let file: String
        let dryRun: Bool
        let yes: Bool
        /// Where the copy's own passphrase comes from, when it is not the vault's.
        let backupPassphrase: PassphraseReader

        init(_ arguments: ParsedArguments) throws {
            global = GlobalOptionValues(arguments)
            file = try arguments.required("file")
            backupPassphrase = PassphraseReader(
                file: arguments.string("backup-passphrase-file"), environmentVariable: "TOKENS_BACKUP_PASSPHRASE",
                environment: ProcessEnvironment.variables)
            dryRun = arguments.flag("dry-run")
            yes = arguments.flag("yes")
        }

        func run() async throws {
            guard FileManager.default.fileExists(atPath: file) else { throw CLIError("no file at \(file)") }
            let summary = try await global.withContainer { container, _ in
                guard let vault = container.unlockedVault?.container else { throw CompositionError.noVaultInDev }
                let accounts = try Self.accounts(of: file, vault: vault, otherPassphrase: backupPassphrase)
                let restore = container.makeRestoreBackupUseCase()
                let plan = try await restore.plan(restoring: accounts)
                StandardStreams.write(RestorePlanText.render(plan, file: file, accounts: accounts.count))
                if plan.changesNothing { return "Nothing to restore: the vault has everything the backup holds" }
                if dryRun { return "Dry run: nothing was written" }
                if !yes { try Self.confirm() }
                try await restore.apply(plan)
                return "Restored: \(plan.added.count) added back, \(plan.updated.count) updated"
            }
            StandardStreams.writeLine(summary)
        }

        /// The backup's accounts, opened with the vault's key, or with the passphrase it was
        /// written under (`otherPassphrase`: its file, its variable, else the terminal).
        static func accounts(of file: String, vault: any UnlockedVaultContainer, otherPassphrase: PassphraseReader) throws -> [Account] {
            do {
                return try vault.readBackup(at: file)
            } catch  where BackupComposer.isOtherKey(error) {
                let passphrase = try otherPassphrase.passphrase(
                    prompt: "This backup was written under another passphrase. Its passphrase: ",
                    otherwise: "--backup-passphrase-file or TOKENS_BACKUP_PASSPHRASE")
                return try BackupComposer.read(at: file, passphrase: passphrase)
            }
        }

        static func confirm() throws {
            guard Terminal.isInteractive else {
                throw CLIError("not restoring without confirmation: pass --yes (or --dry-run to only see what would change)")
            }
            StandardStreams.write("Restore? [y/N] ")
            fflush(nil)
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else { throw CLIError("nothing was restored") }
        }
    }
}
