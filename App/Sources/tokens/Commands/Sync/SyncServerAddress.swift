import AppConfiguration
import Domain
import Foundation

/// The sync server a command talks to: `--server` when given, else the one this machine joined,
/// else the phase's default (ALPHA: the local staging server). Domain's `SyncServerURL` decides
/// which addresses are allowed.
enum SyncServerAddress {
    /// ALPHA's staging server (`make server` style, on this machine).
    static let staging = "http://127.0.0.1:8787"

    static func resolve(_ text: String?, phase: Phase) throws -> URL {
        guard let text = text ?? (phase == .alpha ? staging : nil) else {
            throw CLIError("name the sync server with --server https://HOST[:PORT]")
        }
        do { return try SyncServerURL.checked(text) } catch { throw CLIError("--server: \(error)") }
    }
}
