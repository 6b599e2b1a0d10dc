import AppConfiguration
import Foundation
import Testing

/// A config file's keys that no setting reads are named, with the nearest real key.
@Suite("Unknown config keys")
struct UnknownConfigKeysTests {
    func warnings(_ json: String) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID()).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return UnknownConfigKeys.warnings(inFileAt: file.path).map { $0.replacingOccurrences(of: file.path, with: "FILE") }
    }

    @Test("a misspelled key is named with the nearest real one; known keys, a missing file and bad JSON say nothing here")
    func misspelled() throws {
        #expect(
            try warnings(#"{"server": {"portt": 9000, "port": 8787}, "lockk": {"idle": 60}, "phase": "dev"}"#) == [
                "unknown config key 'lockk.idle' in FILE is ignored (did you mean 'lock.idle'?)",
                "unknown config key 'server.portt' in FILE is ignored (did you mean 'server.port'?)",
            ])
        #expect(try warnings(#"{"colour": "blue"}"#) == ["unknown config key 'colour' in FILE is ignored"])
        #expect(try warnings(#"{"real": {"vault": {"path": "~/v.sqlite"}}, "server": {"metrics": {"port": 9464}}}"#).isEmpty)
        #expect(try warnings("not json").isEmpty)
        #expect(UnknownConfigKeys.warnings(inFileAt: "/nonexistent/config.json").isEmpty)
    }
}
