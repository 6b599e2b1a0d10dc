import AppComposition
import AppConfiguration
import CommandLineKit
import Domain
import TerminalUI

/// `tokens` on its own: the interactive app (Unlock, list, add…); a plain listing when not on a terminal.
struct Interactive: TokensCommand {
    static let spec = CommandSpec("show", abstract: "Show the interactive account list (the default command).")

    let global: GlobalOptionValues

    init(_ arguments: ParsedArguments) { global = GlobalOptionValues(arguments) }

    func run() async throws {
        guard Terminal.isInteractive else {
            StandardStreams.write(try await List.listing(global: global, unixTime: nil, json: false))
            return
        }
        let settings = try await global.settings()
        let graph = try await AppComposer.makeInteractiveContainer(for: settings)
        let (container, lock) = (graph.container, graph.lock)
        // --passphrase-file or TOKENS_PASSPHRASE unlock before the screen starts (a wrong one
        // ends here, status 4); the Unlock screen is for when neither is given.
        // So does a key `tokens unlock` kept.
        var unlocked = false
        if let locked = graph.lockedVault,
            await locked.unlockWithKeptKey(notice: { CommandRunner.printError($0) })
        {
            unlocked = true
        } else if lock.requiresUnlock, let passphrase = try global.passphraseReader.givenPassphrase() {
            var bytes = passphrase.copyBytes()
            defer { bytes.wipe() }
            try await lock.unlock(passphrase: bytes)
            unlocked = true
        }
        await Self.runScreen(container, lock: lock, settings: settings, unlocked: unlocked)
        // Quitting closes the vault; only locking (idle, or asked) drops a kept key.
        if let locked = graph.lockedVault {
            for notice in await locked.end() { CommandRunner.printError("warning: the automatic backup failed: \(notice)") }
        } else {
            await lock.lock()
        }
    }

    @MainActor
    private static func runScreen(
        _ container: any AppContainer, lock: any AccountStoreLock, settings: AppSettings, unlocked: Bool
    ) async {
        await ScreenComposer.makeSession(container, lock: lock, settings: settings, unlocked: unlocked).run()
    }
}
