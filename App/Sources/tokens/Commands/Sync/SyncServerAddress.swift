import AppConfiguration
import Foundation

/// The sync server a command talks to: `--server` when given, else the one this machine joined,
/// else the phase's default (ALPHA: the local staging server). HTTPS is required except on the
/// loopback interface, where nothing leaves the machine.
enum SyncServerAddress {
    /// ALPHA's staging server (`make run-server` style, on this machine).
    static let staging = "http://127.0.0.1:8787"

    static func resolve(_ text: String?, phase: Phase) throws -> URL {
        guard let text = text ?? (phase == .alpha ? staging : nil) else {
            throw CLIError("name the sync server with --server https://HOST[:PORT]")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil, url.user == nil
        else { throw CLIError("--server: not a server URL (https://HOST[:PORT])") }
        switch scheme {
        case "https": return url
        case "http" where isLoopback(host): return url
        case "http": throw CLIError("--server: HTTPS is required for a server that is not on this machine")
        default: throw CLIError("--server: only https:// (or http:// on this machine) is supported")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }
}
