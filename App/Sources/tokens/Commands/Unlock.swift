import AppComposition
import AppConfiguration
import CommandLineKit
import Foundation
import TerminalUI

/// `tokens unlock`: keep the vault's key in the kernel keyring for a while, so commands stop
/// asking for the passphrase; `--status` says whether and for how long.
struct Unlock: TokensCommand {
    static let spec = CommandSpec(
        "unlock",
        abstract: "Keep the vault unlocked for a while, so commands stop asking.",
        discussion: """
            The passphrase is asked once; the vault's key (never the passphrase) is kept in your \
            kernel keyring, in memory only, until it expires or `tokens lock`. Processes running \
            as you can read it, as they can use ssh-agent. Set unlock.timeout to 0 to turn this off.
            """,
        arguments: [
            .option("for", value: "duration", help: "How long: 90s, 15m, 2h (default unlock.timeout; at most 24h)."),
            .flag("status", help: "Say whether the vault is unlocked, and for how long more."),
        ])

    let global: GlobalOptionValues
    let seconds: Int?
    let status: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        global = GlobalOptionValues(arguments)
        status = arguments.flag("status")
        if let text = arguments.string("for") {
            guard let seconds = DurationText.seconds(text), (1...KeptUnlock.maximumSeconds).contains(seconds) else {
                throw UsageError("--for takes a duration from 1s to 24h, such as 90s, 15m or 2h (got “\(TerminalText.escaped(text))”)")
            }
            guard !status else { throw UsageError("--status does not take --for") }
            self.seconds = seconds
        } else {
            self.seconds = nil
        }
    }

    func run() async throws {
        let settings = try await global.settings()
        guard let kept = KeptUnlock(settings: settings) else { throw CompositionError.noVaultInDev }
        let phase = settings.phase.value.rawValue.uppercased()
        guard kept.isEnabled else {
            let source = settings.unlockSeconds.source
            guard status else {
                throw CLIError("unlocking is turned off (unlock.timeout is 0, from \(source)): every command asks for the passphrase")
            }
            StandardStreams.writeLine("locked: unlocking is turned off (unlock.timeout is 0, from \(source))")
            return
        }
        if status { return try report(kept, phase: phase) }
        let seconds = seconds ?? settings.unlockSeconds.value
        let passphrase = try global.passphraseReader.passphrase(prompt: "Passphrase for \(kept.vaultPath): ")
        do {
            _ = try kept.unlock(passphrase: passphrase, seconds: seconds)
        } catch  where KeptUnlock.isKeyringError(error) {
            CommandRunner.printError("notice: \(error); commands will go on asking for the passphrase")
            return
        }
        StandardStreams.writeLine(
            "Unlocked the \(phase) vault for \(DurationText.text(seconds: seconds)): commands do not ask for its passphrase until then, or until `tokens lock`"
        )
    }

    private func report(_ kept: KeptUnlock, phase: String) throws {
        do {
            guard let expiry = try kept.expiry() else {
                StandardStreams.writeLine("locked: commands ask for the \(phase) vault's passphrase")
                return
            }
            let left = max(1, Int(expiry.timeIntervalSinceNow.rounded(.down)))
            StandardStreams.writeLine(
                "unlocked: the \(phase) vault opens without its passphrase for \(DurationText.text(seconds: left)) more")
        } catch  where KeptUnlock.isKeyringError(error) {
            StandardStreams.writeLine("locked: \(error)")
        }
    }
}
