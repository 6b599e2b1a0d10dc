import AppComposition
import AppConfiguration
import CommandLineKit
import Domain

/// The root command: the interactive screen by default, and scriptable subcommands.
enum Tokens {
    /// The version of Tokens (`--version`, the man page), shared with `tokens-server`.
    static let version = TokensVersion.release

    /// What `--version` prints: the name, the release and the vault format it reads and writes.
    static let versionLine = "tokens \(version) (vault format \(AppComposer.vaultFormatVersion))"

    static let spec = CommandSpec(
        "tokens",
        abstract: "One-time passwords (TOTP, HOTP, Steam) in your terminal.",
        discussion: """
            Phases: dev (in-memory demo accounts), alpha and real (encrypted vaults).
            The phase comes from --phase, else TOKENS_PHASE, else the config file, else real.
            Settings and where each came from: tokens config show.

            Exit status:
            \(exitStatusLines)
            """,
        subcommands: CommandTable.groups.map(\.spec),
        defaultSubcommand: Interactive.spec.name,
        globalArguments: GlobalOptions.arguments,
        version: versionLine)

    /// One line per documented exit status. Built by a loop: `joined(separator:)` here made the
    /// runtime check generic requirements against every conformance in the binary, at every start.
    private static var exitStatusLines: String {
        var lines = ""
        for (status, meaning) in ExitStatus.documented {
            if !lines.isEmpty { lines += "\n" }
            let code = String(status.rawValue)
            // Right-aligned in two columns, so every meaning starts in the same column.
            lines += String(repeating: " ", count: 4 - code.count) + code + "  " + meaning
        }
        return lines
    }

    /// Reads command lines against `spec`.
    static let parser = CommandLineParser(root: spec)
}
