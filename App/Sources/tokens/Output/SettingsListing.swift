import AppComposition
import Foundation

/// `tokens config show` output: an aligned table, or JSON for scripts.
enum SettingsListing {
    static func table(_ settings: AppSettings) -> String {
        let entries = settings.entries
        let keyWidth = entries.map(\.key.count).max() ?? 0
        let valueWidth = entries.map(\.value.count).max() ?? 0
        var lines = entries.map { entry in
            entry.key.padding(toLength: keyWidth, withPad: " ", startingAt: 0) + "  "
                + entry.value.padding(toLength: valueWidth, withPad: " ", startingAt: 0) + "  (\(entry.source))"
        }
        lines.append("config file: \(settings.configFile)\(settings.configFileExists ? "" : " (not present)")")
        return lines.joined(separator: "\n") + "\n"
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
