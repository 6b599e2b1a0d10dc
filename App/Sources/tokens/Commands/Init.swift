import AppComposition
import CommandLineKit
import TerminalUI

/// `tokens init`: create the phase's encrypted vault.
struct Init: TokensCommand {
    static let spec = CommandSpec(
        "init",
        abstract: "Create the encrypted vault of the ALPHA or REAL phase.",
        discussion: """
            The passphrase is asked twice on the terminal, without echo. For scripts, give it with \
            --passphrase-file or TOKENS_PASSPHRASE (less safe). There is no recovery without it.
            """)

    let global: GlobalOptionValues

    init(_ arguments: ParsedArguments) { global = GlobalOptionValues(arguments) }

    func run() async throws {
        let settings = try await global.settings()
        guard settings.phase.value.usesVault else { throw CompositionError.noVaultInDev }
        let passphrase = try global.passphraseReader.passphrase(prompt: "New vault passphrase: ", confirm: true)
        let path = try AppComposer.createVault(for: settings, passphrase: passphrase)
        StandardStreams.writeLine("Created the \(settings.phase.value.rawValue.uppercased()) vault at \(TerminalText.escaped(path))")
    }
}
