import AppComposition
import AppConfiguration
import CommandLineKit
import Foundation
import Testing

@testable import tokens

/// Help as a user reads it: no sentence broken early by a hard line break in the source
/// ("saved in / its own / transaction"), nothing wider than the terminal.
@Suite("Help text")
struct HelpTextTests {
    @Test("every command's help at 80 columns: no line ends where the next line's first word would have fitted")
    func noRaggedLines() {
        for (path, _) in Tokens.spec.tree() {
            let help = HelpText.render(path, in: Tokens.spec, columns: 80)
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
                #expect(line.count + 1 + word.count > 80, "\(path): “\(line)” then “\(next)”")
            }
            let long = help.split(separator: "\n").filter { $0.count > 80 }
            #expect(long.isEmpty, "\(path): \(long)")
        }
    }

    @Test("every command's help names its own options and the global ones")
    func options() {
        for (path, command) in Tokens.spec.tree() {
            let help = HelpText.render(path, in: Tokens.spec)
            for spec in Tokens.spec.globalArguments + command.arguments {
                #expect(help.contains(spec.synopsis), "\(path) lacks \(spec.synopsis)")
            }
        }
    }
}

/// The man page: the command tree and the extra sections, from the same lists as the settings and `--help`.
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

    @Test("the page lists every command and option, dated, and not the hidden argument")
    func page() {
        let page = ManualSections.manualPage(date: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(page.hasPrefix(".Dd November 18, 2026\n.Dt TOKENS 1\n"))
        for (path, command) in Tokens.spec.tree().dropFirst() {
            #expect(page.contains(".It Em \(command.name)\n"), "\(path)")
            for spec in command.arguments where !spec.isPositional { #expect(page.contains("Fl -\(spec.key)"), "\(path) \(spec.key)") }
        }
        #expect(!page.contains(ManualSections.argument))
    }
}
