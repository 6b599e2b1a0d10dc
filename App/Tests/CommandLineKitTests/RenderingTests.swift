import CommandLineKit
import Foundation
import Testing

@Suite("Help, man page and completion scripts")
struct RenderingTests {
    @Test("help lists the usage, arguments, options with the global ones, and subcommands")
    func help() {
        let get = HelpText.render(["tool", "get"], in: Fixture.root)
        #expect(get.hasPrefix("OVERVIEW: Get one.\n"))
        #expect(get.contains("USAGE: tool get [<options>] [<query>]\n"))
        #expect(get.contains("\n  <query>                   What to get.\n"))
        #expect(get.contains("\n  --phase <phase>           The phase.\n"))
        #expect(get.contains("\n  -y, --yes                 Do not ask.\n"))
        #expect(get.contains("\n  --[no-]favorite           Mark.\n"))
        #expect(!get.contains("--version"))
        let root = HelpText.render(["tool"], in: Fixture.root)
        #expect(root.contains("\n  show (default)            The default.\n"))
        #expect(root.contains("\n  --version                 Show the version.\n"))
        #expect(root.contains("See 'tool help <subcommand>' for detailed help."))
    }

    @Test("text wraps at the width, continuing under its column; a long label puts its text below")
    func wrapping() {
        let words = Array(repeating: "word", count: 40).joined(separator: " ")
        let spec = CommandSpec(
            "tool", abstract: "A tool.", discussion: words,
            arguments: [.option("a-very-long-option-name", value: "value", help: words)])
        let lines = HelpText.render(["tool"], in: spec).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 80 })
        let long = lines.firstIndex { $0 == "  --a-very-long-option-name <value>" }
        #expect(long != nil)
        if let long { #expect(lines[long + 1].hasPrefix(String(repeating: " ", count: 28) + "word")) }
        #expect(HelpText.wrap("aa bb cc", width: 5) == ["aa bb", "cc"])
        #expect(HelpText.wrap("  0  success", width: 80) == ["  0  success"])
        #expect(HelpText.wrap("abcdefgh ij", width: 4, first: "> ", rest: "  ") == ["> abcdefgh", "  ij"])
    }

    @Test("the man page holds every command and option, and text cannot become a request")
    func manualPage() {
        let spec = CommandSpec(
            "tool", abstract: "A tool.", discussion: ".TH not a request\n'also not",
            subcommands: [CommandSpec("get", abstract: "Get one.", arguments: [.flag("json", help: "Back\\slash.")])])
        let page = ManualPage.render(spec, date: "November 24, 2026", extraSections: ".Sh FILES\n")
        #expect(page.hasPrefix(".Dd November 24, 2026\n.Dt TOOL 1\n"))
        #expect(page.contains("\n.It Em get\nGet one.\n"))
        #expect(page.contains("\n.It Fl -json\nBack\\eslash.\n"))
        #expect(page.contains("\n\\&.TH not a request\n\\&'also not\n"))
        #expect(page.hasSuffix(".El\n.Sh FILES\n"))
    }

    @Test("completion scripts name every subcommand and option where it applies; bash reads its script")
    func completions() throws {
        let bash = CompletionScript.render(Fixture.root, shell: "bash")
        #expect(bash.contains("\"tool get\") words=\"--phase --at --json --yes --output --favorite --no-favorite --help\" ;;"))
        #expect(bash.contains("\"tool config\") words=\"show path --phase --help\" ;;"))
        #expect(bash.contains("\"tool config path\") command=\"tool config path\" ;;"))
        #expect(CompletionScript.render(Fixture.root, shell: "zsh").hasPrefix("#compdef tool\n"))
        let fish = CompletionScript.render(Fixture.root, shell: "fish")
        #expect(fish.contains("complete -c tool -n '__fish_seen_subcommand_from get' -s y -l yes -d 'Do not ask.'"))
        #expect(fish.contains("complete -c tool -n '__fish_use_subcommand' -a config -d 'Settings.'"))
        // bash itself parses the script and completes a subcommand's options with it.
        let script = bash + "COMP_WORDS=(tool --phase dev config --p); COMP_CWORD=4; _tool; echo \"${COMPREPLY[*]}\"\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed == "--phase\n")
    }
}
