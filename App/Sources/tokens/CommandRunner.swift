import AppComposition
import ArgumentParser
import Foundation
import TerminalUI

/// Parses and runs a command line. Every failure becomes one line on standard error and a
/// documented exit status; no error ever ends in a stack trace.
enum CommandRunner {
    static func run(_ arguments: [String]) -> Int32 {
        // For `make release` only, and kept out of ArgumentParser so no help or man page lists it.
        if arguments == [ManualSections.argument] {
            StandardStreams.write(ManualSections.mdoc())
            return ExitStatus.success.rawValue
        }
        let run: () async throws -> Void
        var needsMainActor = false
        if let quick = QuickCode(arguments: arguments) {
            run = quick.run
        } else {
            let command: any ParsableCommand
            do {
                command = try Tokens.parseAsRoot(GlobalOptionsPlacement.normalize(arguments))
            } catch {
                return report(error)
            }
            run = CommandTable.runner(for: command)
            // Only the screen needs the main actor, and the run loop that serves it (with its
            // threads); every other command runs its tasks on this thread.
            needsMainActor = command is Interactive
        }
        let work: () async -> Int32 = {
            do {
                try await run()
                return ExitStatus.success.rawValue
            } catch {
                return report(error)
            }
        }
        if needsMainActor { CommandLoop.serveMainActor(work) }
        return CommandLoop.wait(work)
    }

    /// Prints an error as one line and returns its exit status (help and --version print normally).
    static func report(_ error: any Error) -> Int32 {
        if let failure = error as? CLIError {
            printError(failure.message)
            return failure.status.rawValue
        }
        if let exitCode = error as? ExitCode { return exitCode.rawValue }
        let code = Tokens.exitCode(for: error)
        if code == .success {
            // --help and --version, written here rather than by ArgumentParser's `print`.
            StandardStreams.writeLine(Tokens.fullMessage(for: error))
            return ExitStatus.success.rawValue
        }
        guard code == .validationFailure else {
            printError(FailureText.sentence(for: error))
            return switch FailureKind(of: error) {
            case .wrongPassphrase: ExitStatus.wrongPassphrase.rawValue
            case .damagedVault: ExitStatus.damagedVault.rawValue
            case .other: ExitStatus.failure.rawValue
            }
        }
        let message = Tokens.message(for: error)
            .split(separator: "\n").first.map(String.init) ?? "invalid usage"
        printError(message.replacingOccurrences(of: "Error: ", with: "") + " (see tokens --help)")
        return ExitStatus.usage.rawValue
    }

    /// Every error, whatever text from outside it quotes, is one line with nothing that could
    /// drive the terminal (TerminalText).
    static func printError(_ message: String) {
        let line = message.split(separator: "\n").joined(separator: " ")
        StandardStreams.writeErrorLine("tokens: \(TerminalText.escaped(line))")
    }
}
