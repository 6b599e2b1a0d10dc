import AppComposition
import CommandLineKit
import Foundation
import TerminalUI

extension Backup {
    /// `tokens backup list`: the copies in the backups folder, each checked with the vault's key.
    struct List: TokensCommand {
        static let spec = CommandSpec(
            "list", abstract: "List the backups, oldest first, each opened and checked with the vault's key.",
            discussion: """
                A line a copy: its name (the time it was written, UTC), its accounts, its size, \
                and whether it checked. A copy written before a passphrase change opens only \
                with that passphrase: check it with tokens backup verify FILE.
                """,
            arguments: [
                .option("folder", value: "folder", help: "The folder to list (default: backups beside the vault).")
            ])

        let global: GlobalOptionValues
        let folder: String?

        init(_ arguments: ParsedArguments) throws {
            global = GlobalOptionValues(arguments)
            folder = arguments.string("folder")
            if folder?.isEmpty == true { throw UsageError("--folder needs a folder") }
        }

        func run() async throws {
            let (listed, lines) = try await Backup.withVault(global, folder: folder) { vault, listed, _ in
                (listed, BackupComposer.copies(in: listed).map { Self.line(for: $0, vault: vault) })
            }
            guard !lines.isEmpty else {
                StandardStreams.writeLine("No backups in \(TerminalText.escaped(listed)) (tokens backup writes one)")
                return
            }
            for line in lines { StandardStreams.writeLine(line) }
        }

        /// One copy's line: name, accounts, bytes, and what its check found.
        static func line(for copy: BackupCopy, vault: any UnlockedVaultContainer) -> String {
            let name = TerminalText.escaped((copy.path as NSString).lastPathComponent)
            let bytes = copy.bytes
            do {
                let accounts = try vault.readBackup(at: copy.path).count
                return "\(name)  \(Now.count(accounts))  \(bytes) bytes  checked"
            } catch  where BackupComposer.isOtherKey(error) {
                return "\(name)  \(bytes) bytes  another passphrase: check it with tokens backup verify"
            } catch {
                return "\(name)  \(bytes) bytes  FAILED: \(TerminalText.escaped(String(describing: error)))"
            }
        }
    }
}
