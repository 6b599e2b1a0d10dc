import CommandLineKit
import Testing

/// A small tree with every shape of argument, for the parser's rules.
enum Fixture {
    static let root = CommandSpec(
        "tool", abstract: "A tool.",
        subcommands: [
            CommandSpec("show", abstract: "The default."),
            CommandSpec(
                "get", abstract: "Get one.",
                arguments: [
                    .positional("query", required: false, help: "What to get."),
                    .option("at", value: "time", help: "When."),
                    .flag("json", help: "As JSON."),
                    .flag("yes", short: "y", help: "Do not ask."),
                    .option("output", short: "o", value: "file", help: "Where."),
                    .invertibleFlag("favorite", help: "Mark."),
                ]),
            CommandSpec("add", abstract: "Add some.", arguments: [.positional("uri", repeating: true, help: "URIs.")]),
            CommandSpec(
                "config", abstract: "Settings.",
                subcommands: [CommandSpec("show", abstract: "Show them."), CommandSpec("path", abstract: "The file.")],
                defaultSubcommand: "show"),
        ],
        defaultSubcommand: "show",
        globalArguments: [.option("phase", help: "The phase.")],
        version: "tool 1.0")

    static func parse(_ arguments: [String]) throws -> Invocation {
        try CommandLineParser(root: root).parse(arguments)
    }

    static func run(_ arguments: [String]) throws -> (path: [String], arguments: ParsedArguments) {
        guard case .run(let path, let parsed) = try parse(arguments) else {
            Issue.record("\(arguments) did not parse to a command")
            return ([], ParsedArguments())
        }
        return (path, parsed)
    }

    static func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return (error as? UsageError)?.message ?? "\(error)"
        }
    }
}

@Suite("Command-line parser")
struct CommandLineParserTests {
    @Test("global options anywhere, before or after the subcommand, with = or a separate value")
    func globalOptions() throws {
        for arguments in [
            ["--phase", "dev", "get", "q"], ["get", "--phase", "dev", "q"], ["get", "q", "--phase=dev"], ["--phase=dev", "get", "q"],
        ] {
            let (path, parsed) = try Fixture.run(arguments)
            #expect(path == ["tool", "get"], "\(arguments)")
            #expect(parsed.string("phase") == "dev", "\(arguments)")
            #expect(parsed.string("query") == "q", "\(arguments)")
        }
    }

    @Test("flags, short names, invertible flags, an option's last value")
    func shapes() throws {
        let parsed = try Fixture.run(["get", "-y", "--json", "-o", "out.txt", "--no-favorite", "--at", "1", "--at", "2"]).arguments
        #expect(parsed.flag("yes") && parsed.flag("json"))
        #expect(parsed.string("output") == "out.txt")
        #expect(parsed.invertibleFlag("favorite") == false)
        #expect(try Fixture.run(["get", "--favorite"]).arguments.invertibleFlag("favorite") == true)
        #expect(try Fixture.run(["get"]).arguments.invertibleFlag("favorite") == nil)
        #expect(parsed.string("at") == "2")
        #expect(try parsed.integer("at") == 2)
        #expect(try !Fixture.run(["get"]).arguments.flag("json"))
    }

    @Test("default subcommands, at the root and in a group; a group's subcommand")
    func defaults() throws {
        #expect(try Fixture.run([]).path == ["tool", "show"])
        #expect(try Fixture.run(["--phase", "dev"]).path == ["tool", "show"])
        #expect(try Fixture.run(["config"]).path == ["tool", "config", "show"])
        #expect(try Fixture.run(["config", "path", "--phase", "x"]).path == ["tool", "config", "path"])
    }

    @Test("-- ends the options; - is a value; a repeating positional takes every word")
    func positionals() throws {
        #expect(try Fixture.run(["get", "--", "--json"]).arguments.string("query") == "--json")
        #expect(try Fixture.run(["get", "-"]).arguments.string("query") == "-")
        #expect(try Fixture.run(["get", "-o", "-"]).arguments.string("output") == "-")
        #expect(try Fixture.run(["add", "a", "b", "--phase", "p", "c"]).arguments.strings("uri") == ["a", "b", "c"])
        #expect(try Fixture.run(["get", "--", "config"]).arguments.string("query") == "config")
    }

    @Test("help anywhere, help COMMAND, and the root's version")
    func help() throws {
        #expect(try Fixture.parse(["--help"]) == .help(path: ["tool"]))
        #expect(try Fixture.parse(["get", "-h", "q"]) == .help(path: ["tool", "get"]))
        #expect(try Fixture.parse(["--phase", "dev", "config", "path", "--help"]) == .help(path: ["tool", "config", "path"]))
        #expect(try Fixture.parse(["help", "get"]) == .help(path: ["tool", "get"]))
        #expect(try Fixture.parse(["help"]) == .help(path: ["tool"]))
        // After global options, and their values, help is still the first command word.
        #expect(try Fixture.parse(["--phase", "real", "help", "config", "path"]) == .help(path: ["tool", "config", "path"]))
        #expect(try Fixture.parse(["--phase=real", "help", "get"]) == .help(path: ["tool", "get"]))
        // A value that happens to be "help" is a value.
        #expect(try Fixture.run(["--phase", "help", "get"]).path == ["tool", "get"])
        #expect(try Fixture.parse(["--version"]) == .version)
        #expect(try Fixture.parse(["--generate-completion-script", "fish"]) == .completionScript(shell: "fish"))
        // After --, -h is a word like any other.
        #expect(try Fixture.run(["get", "--", "-h"]).arguments.string("query") == "-h")
    }

    @Test(
        "every mistake is a one-line usage error that names it",
        arguments: [
            (["--bogus"], "Unknown option '--bogus'"),
            (["get", "-x"], "Unknown option '-x'"),
            (["get", "--phase"], "Missing value for '--phase <phase>'"),
            (["get", "--at", "--json"], "Missing value for '--at <time>'"),
            (["add"], "Missing expected argument '<uri> ...'"),
            (["get", "a", "b"], "Unexpected argument 'b'"),
            (["fetch"], "Unknown command 'fetch'"),
            (["gte"], "Unknown command 'gte' (did you mean 'get'?)"),
            (["config", "shwo"], "Unknown command 'shwo' (did you mean 'show'?)"),
            (["help", "nosuch"], "Unknown command 'nosuch'"),
            (["--phase", "dev", "help", "config", "paht"], "Unknown command 'paht' (did you mean 'path'?)"),
            (["get", "--favorite", "--no-favorite"], "'--favorite' and '--no-favorite' contradict each other: give one"),
            (["get", "--json=yes"], "'--json' takes no value"),
            (["--version", "get"], "Unknown option '--version'"),
            (["--generate-completion-script", "tcsh"], "--generate-completion-script takes one of: bash, zsh, fish"),
        ])
    func mistakes(arguments: [String], message: String) {
        #expect(Fixture.usageError(arguments) == message)
    }

    @Test("a whole-number option refuses other text")
    func integers() throws {
        let parsed = try Fixture.run(["get", "--at", "soon"]).arguments
        #expect(throws: UsageError("The value 'soon' is invalid for '--at': give a whole number")) { try parsed.integer("at") }
        #expect(throws: UsageError("Missing expected argument '--output'")) { try parsed.required("output") }
    }
}
