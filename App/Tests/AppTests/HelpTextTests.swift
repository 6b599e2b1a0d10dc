import AppComposition
import AppConfiguration
import ArgumentParser
import Foundation
import Testing

@testable import tokens

/// Help as a user reads it: no sentence broken early by a hard line break in the source that
/// ArgumentParser then wraps again ("saved in / its own / transaction").
@Suite("Help text")
struct HelpTextTests {
    static let commands: [any ParsableCommand.Type] =
        [Tokens.self] + Tokens.configuration.subcommands + Config.configuration.subcommands

    @Test("every command's help at 80 columns: no line ends where the next line's first word would have fitted")
    func noRaggedLines() {
        for command in Self.commands {
            let help = Tokens.helpMessage(for: command, columns: 80)
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst()) {
                let indent = line.prefix(while: \.isWhitespace).count
                let continuation = next.drop(while: \.isWhitespace)
                // A continuation line: same indentation, single spaces only (a new option or
                // subcommand row has its columns padded), starting in the middle of a sentence.
                guard indent == next.count - continuation.count, line.contains(where: { !$0.isWhitespace }),
                    !continuation.contains("  "), let word = continuation.split(separator: " ").first,
                    word.first?.isLowercase == true
                else { continue }
                // ArgumentParser wraps a column short of the width; a ragged break leaves more room.
                #expect(line.count + 1 + word.count >= 79, "\(command): “\(line)” then “\(next)”")
            }
            // USAGE lines are ArgumentParser's own and are not wrapped.
            let long = help.split(separator: "\n").filter { $0.count > 80 && !$0.hasPrefix("USAGE:") }
            #expect(long.isEmpty, "\(command): \(long)")
        }
    }
}

/// The man page's extra sections come from the same lists as the settings and `--help`.
@Suite("Manual sections")
struct ManualSectionsTests {
    @Test("every setting has its environment variable described; every exit status is listed")
    func complete() {
        let mdoc = ManualSections.mdoc()
        for key in SettingsLoader.keys {
            #expect(ManualSections.settings[key] != nil, "no description for \(key)")
            #expect(mdoc.contains(".It Ev \(SettingsLoader.environmentName(key))\n"))
        }
        for (status, meaning) in ExitStatus.documented {
            #expect(mdoc.contains(".It \(status.rawValue)\n\(meaning)\n"))
        }
        for section in [".Sh ENVIRONMENT", ".Sh FILES", ".Sh \"EXIT STATUS\""] {
            #expect(mdoc.components(separatedBy: section).count == 2, "\(section) once")
        }
        #expect(!mdoc.split(separator: "\n").contains { !$0.hasPrefix(".") && $0.hasPrefix("'") })
    }
}
