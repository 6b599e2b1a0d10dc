import AppComposition
import CommandLineKit
import Foundation
import TerminalUI

/// Parses and runs a command line. Every failure becomes one line on standard error and a
/// documented exit status; no error ever ends in a stack trace.
enum CommandRunner {
    static func run(_ arguments: [String]) -> Int32 {
        // For `make release` only, and kept out of the command tree so no help or man page lists it.
        if arguments == [ManualSections.argument] {
            StandardStreams.write(ManualSections.manualPage())
            return ExitStatus.success.rawValue
        }
        let command: any TokensCommand
        do {
            switch try Tokens.parser.parse(arguments) {
            case .help(let path):
                StandardStreams.write(HelpText.render(path, in: Tokens.spec))
                return ExitStatus.success.rawValue
            case .version:
                StandardStreams.writeLine(Tokens.versionLine)
                return ExitStatus.success.rawValue
            case .completionScript(let shell):
                StandardStreams.write(CompletionScript.render(Tokens.spec, shell: shell))
                return ExitStatus.success.rawValue
            case .run(let path, let parsed):
                guard let type = CommandTable.command(at: path) else {
                    throw UsageError("Unknown command '\(path.joined(separator: " "))'")
                }
                command = try type.init(parsed)
            }
        } catch {
            return report(error)
        }
        let work: () async -> Int32 = {
            do {
                try await command.run()
                return ExitStatus.success.rawValue
            } catch {
                return report(error)
            }
        }
        // Only the screen needs the main actor, and the run loop that serves it (with its
        // threads); every other command runs its tasks on this thread.
        if command is Interactive { CommandLoop.serveMainActor(work) }
        return CommandLoop.wait(work)
    }

    /// Prints an error as one line and returns its exit status.
    static func report(_ error: any Error) -> Int32 {
        if let failure = error as? CLIError {
            printError(failure.message)
            return failure.status.rawValue
        }
        if let usage = error as? UsageError {
            printError(usage.message + " (see tokens --help)")
            return ExitStatus.usage.rawValue
        }
        printError(FailureText.sentence(for: error))
        return switch FailureKind(of: error) {
        case .wrongPassphrase: ExitStatus.wrongPassphrase.rawValue
        case .damagedVault: ExitStatus.damagedVault.rawValue
        case .backupFailed: ExitStatus.backupFailed.rawValue
        case .other: ExitStatus.failure.rawValue
        }
    }

    /// Every error, whatever text from outside it quotes, is one line with nothing that could
    /// drive the terminal (TerminalText).
    static func printError(_ message: String) {
        let line = message.split(separator: "\n").joined(separator: " ")
        StandardStreams.writeErrorLine("tokens: \(TerminalText.escaped(line))")
    }
}
