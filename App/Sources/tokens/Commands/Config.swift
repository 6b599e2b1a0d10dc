import AppComposition
import CommandLineKit
import Foundation

/// `tokens config`: the resolved configuration and the file it comes from.
enum Config {
    static let spec = CommandSpec(
        "config",
        abstract: "Show the resolved configuration, or the path of the config file.",
        subcommands: [Show.spec, Path.spec],
        defaultSubcommand: Show.spec.name)

    /// `tokens config show`: each setting, its value and where it came from. No secrets.
    struct Show: TokensCommand {
        static let spec = CommandSpec(
            "show",
            abstract: "Print each setting, its value and its source (flag, environment, file or default).",
            arguments: [.flag("json", help: "Print JSON instead of a table.")])

        let global: GlobalOptionValues
        let json: Bool

        init(_ arguments: ParsedArguments) {
            global = GlobalOptionValues(arguments)
            json = arguments.flag("json")
        }

        func run() async throws {
            let settings = try await global.settings()
            StandardStreams.write(json ? try SettingsListing.json(settings) : SettingsListing.table(settings))
        }
    }

    /// `tokens config path`: the config file `tokens` reads (whether or not it exists yet).
    struct Path: TokensCommand {
        static let spec = CommandSpec(
            "path", abstract: "Print the path of the config file tokens reads (it may not exist yet).")

        let global: GlobalOptionValues

        init(_ arguments: ParsedArguments) { global = GlobalOptionValues(arguments) }

        func run() async throws {
            StandardStreams.writeLine(try await global.settings().configFile)
        }
    }
}
