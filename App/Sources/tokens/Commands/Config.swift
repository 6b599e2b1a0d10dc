import AppComposition
import ArgumentParser
import Foundation

/// `tokens config`: the resolved configuration and the file it comes from.
struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the resolved configuration, or the path of the config file.",
        subcommands: [Show.self, Path.self],
        defaultSubcommand: Show.self
    )

    /// `tokens config show`: each setting, its value and where it came from. No secrets.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print each setting, its value and its source (flag, environment, file or default).")

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func run() async throws {
            let settings = try await global.settings()
            StandardStreams.write(json ? try SettingsListing.json(settings) : SettingsListing.table(settings))
        }
    }

    /// `tokens config path`: the config file `tokens` reads (whether or not it exists yet).
    struct Path: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "path",
            abstract: "Print the path of the config file tokens reads (it may not exist yet).")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            StandardStreams.writeLine(try await global.settings().configFile)
        }
    }
}
