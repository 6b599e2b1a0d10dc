import AppComposition
import ArgumentParser
import Domain

/// The root command: the interactive screen by default, and scriptable subcommands.
struct Tokens: AsyncParsableCommand {
    /// The version of Tokens: the one place it is written (`--version`, the man page).
    static let version = "0.1.0"

    /// What `--version` prints: the name, the release and the vault format it reads and writes.
    static let versionLine = "tokens \(version) (vault format \(AppComposer.vaultFormatVersion))"

    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "One-time passwords (TOTP, HOTP, Steam) in your terminal.",
        discussion: """
            Phases: dev (in-memory demo accounts), alpha and real (encrypted vaults).
            The phase comes from --phase, else TOKENS_PHASE, else the config file, else real.
            Settings and where each came from: tokens config show.

            Exit status:
            \(ExitStatus.documented.map { "  \($0.0.rawValue)  \($0.1)" }.joined(separator: "\n"))
            """,
        version: versionLine,
        subcommands: [
            Interactive.self, List.self, Code.self, Add.self, Edit.self, Remove.self, URI.self, QR.self, Import.self, Export.self, Init.self,
            Passwd.self, Config.self,
        ],
        defaultSubcommand: Interactive.self
    )
}
