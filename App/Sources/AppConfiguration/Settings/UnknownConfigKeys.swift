import CommandLineKit
import Foundation

/// The keys of a config file that no setting reads (a misspelling is otherwise ignored in
/// silence), each with the nearest key that exists, for a warning.
package enum UnknownConfigKeys {
    /// One line per unknown key in the JSON file at `path` (none when it is missing or not JSON:
    /// reading the settings reports that).
    package static func warnings(inFileAt path: String, known: [String] = SettingsLoader.allKeys) -> [String] {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return leafKeys(object).filter { !known.contains($0) }.sorted().map { key in
            let hint = NearestName.of(key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            return "unknown config key '\(key)' in \(path) is ignored\(hint)"
        }
    }

    /// Every leaf's dotted path: `{"server": {"port": 1}}` is `server.port`.
    static func leafKeys(_ object: [String: Any], prefix: String = "") -> [String] {
        object.flatMap { name, value -> [String] in
            let key = prefix.isEmpty ? name : prefix + "." + name
            if let nested = value as? [String: Any] { return leafKeys(nested, prefix: key) }
            return [key]
        }
    }

}
