import AppComposition
import AppConfiguration
import CommandLineKit
import Foundation
import TerminalUI

/// `tokens config show` output: an aligned table, or JSON for scripts.
enum SettingsListing {
    static func table(_ settings: AppSettings) -> String {
        TextTable.render(settings.entries.map { [$0.key, $0.value, "(\($0.source))"] }, escape: TerminalText.escaped)
            + "config file: \(settings.configFile)\(settings.configFileExists ? "" : " (not present)")\n"
    }

    struct Document: Encodable {
        let configFile: String
        let configFileExists: Bool
        let settings: [SettingsEntry]
    }

    static func json(_ settings: AppSettings) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(
            configFile: settings.configFile, configFileExists: settings.configFileExists, settings: settings.entries)
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }
}
