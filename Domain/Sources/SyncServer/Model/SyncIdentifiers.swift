import Foundation

/// A UUID that knows what it names, so an entry's id cannot be passed for a device's.
public struct SyncIdentifier<Kind>: Hashable, Sendable, CustomStringConvertible {
    public let uuid: UUID
    public init(_ uuid: UUID) { self.uuid = uuid }
    public var description: String { uuid.uuidString.lowercased() }
}

/// Tags of `SyncIdentifier`.
public enum SyncIdentifierKind {
    /// The machines that share one sync key.
    public enum Account {}
    /// One enrolled machine.
    public enum Device {}
    /// One entry.
    public enum Entry {}
}

/// A sync account: its id is drawn by the client and is part of the sync code; the server
/// learns nothing else about it.
public typealias SyncAccountID = SyncIdentifier<SyncIdentifierKind.Account>
/// One enrolled machine of a sync account (drawn by the server).
public typealias DeviceID = SyncIdentifier<SyncIdentifierKind.Device>
/// An entry's id, chosen by the client (the server cannot tell it from random).
public typealias EntryID = SyncIdentifier<SyncIdentifierKind.Entry>
