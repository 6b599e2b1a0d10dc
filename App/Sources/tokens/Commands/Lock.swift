import AppComposition
import CommandLineKit

/// `tokens lock`: drop the key `tokens unlock` kept, at once.
struct Lock: TokensCommand {
    static let spec = CommandSpec(
        "lock", abstract: "Lock the vault now: drop the key `tokens unlock` kept; commands ask again.")

    let global: GlobalOptionValues

    init(_ arguments: ParsedArguments) { global = GlobalOptionValues(arguments) }

    func run() async throws {
        let settings = try await global.settings()
        guard let kept = KeptUnlock(settings: settings) else { throw CompositionError.noVaultInDev }
        let phase = settings.phase.value.rawValue.uppercased()
        do {
            let dropped = try kept.lock()
            StandardStreams.writeLine(
                dropped ? "Locked the \(phase) vault: its key is gone from the keyring" : "The \(phase) vault was not unlocked")
        } catch  where KeptUnlock.isKeyringError(error) {
            StandardStreams.writeLine("The \(phase) vault was not unlocked: \(error)")
        }
    }
}
