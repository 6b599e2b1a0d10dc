import AppComposition
import CommandLineKit
import Foundation

/// `tokens passwd`: change the vault passphrase.
struct Passwd: TokensCommand {
    static let spec = CommandSpec(
        "passwd",
        abstract: "Change the vault passphrase.",
        discussion: """
            The master key is rotated: a new key, every account re-encrypted under it and the old \
            passphrase's slot removed, in one transaction. On a vault that syncs, the sync key is \
            replaced too (tokens sync rekey), so an old copy of this vault opens nothing new. For \
            scripts: --new-passphrase-file or TOKENS_NEW_PASSPHRASE.
            """,
        arguments: [.option("new-passphrase-file", value: "file", help: "Read the new passphrase from this file.")])

    let global: GlobalOptionValues
    let newPassphraseFile: String?

    init(_ arguments: ParsedArguments) {
        global = GlobalOptionValues(arguments)
        newPassphraseFile = arguments.string("new-passphrase-file")
    }

    func run() async throws {
        // The current passphrase is asked even while unlocked; the key kept for the old one
        // opens nothing afterwards, and is dropped now rather than at the next command: once the
        // vault is closed (finding its id opens the file, and closing a descriptor of it while
        // this process has it open would drop this process's locks on it).
        let settings = try await global.withContainer(usingKeptKey: false) { container, settings in
            guard let vault = container.unlockedVault?.container else { throw CompositionError.noVaultInDev }
            let reader = PassphraseReader(
                file: newPassphraseFile, environmentVariable: "TOKENS_NEW_PASSPHRASE",
                environment: ProcessEnvironment.variables)
            try vault.changePassphrase(to: try reader.passphrase(prompt: "New passphrase: ", confirm: true))
            StandardStreams.writeLine("Passphrase changed")
            // An old copy of the vault holds the sync code: replace the sync key too.
            let context = SyncContext(container: vault, store: vault.syncStore, caFile: settings.sync.caFilePath, settings: settings)
            if try await context.store.membership() != nil {
                do {
                    try await SyncContext.mappingSyncErrors { try await Sync.Rekey.rekey(context) }
                } catch let error as CLIError {
                    StandardStreams.writeErrorLine(
                        "tokens: the sync key was not replaced (\(error.message)): run tokens sync rekey when the server can be reached")
                }
            }
            return settings
        }
        _ = try? KeptUnlock(settings: settings)?.lock()
    }
}
