import Foundation

/// Port: a connection to one sync server (Data's HTTP client and the remotes over it), through
/// which a sync round reaches the account as this machine's enrolled device. Close it when done.
public protocol SyncServerConnection: Sendable {
    /// The server this connection reaches.
    var server: URL { get }
    /// The account's entries and sync key as the device `membership` enrolled: entries sealed
    /// under its current key, opened under the key of their version.
    func remote(for membership: SyncMembership) -> any SyncRemote & SyncKeysRemote & SyncDevicesRemote
    /// Closes the connection; no request may follow.
    func close() async
}

/// Port: opens connections to sync servers, trusting only the CA certificates of `caFile`
/// (a PEM file's path) when one is given, else the system's.
public protocol SyncServerConnector: Sendable {
    func connect(to server: URL, caFile: String?) -> any SyncServerConnection
}
