import ArgumentParser
import Domain

/// The root command: the interactive screen by default, and scriptable subcommands.
struct Tokens: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "One-time passwords (TOTP, HOTP, Steam) in your terminal.",
        discussion: """
            Phases: dev (in-memory demo accounts), alpha and real (encrypted vaults).
            The phase comes from --phase, else TOKENS_PHASE, else the config file, else real.
            """,
        version: version,
        subcommands: [
            Interactive.self, List.self, Code.self, Add.self, Edit.self, Remove.self, URI.self, QR.self, Import.self, Export.self, Init.self,
            Passwd.self,
        ],
        defaultSubcommand: Interactive.self
    )
}
