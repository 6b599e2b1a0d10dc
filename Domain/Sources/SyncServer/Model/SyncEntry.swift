import Foundation

/// One entry as the server keeps it: ciphertext and the facts it needs to order it. The server
/// never learns what is inside (secret, issuer, name, note, order).
public struct SyncEntry: Equatable, Sendable {
    public let id: EntryID
    /// The account's counter when this version was pushed: unique in the account, increasing
    /// in commit order.
    public let sequence: Int64
    public let payload: EntryPayload
    /// The server's time of the push (for the tombstone horizon).
    public let changedAt: Date

    public init(id: EntryID, sequence: Int64, payload: EntryPayload, changedAt: Date) {
        self.id = id
        self.sequence = sequence
        self.payload = payload
        self.changedAt = changedAt
    }
}

/// What a client sends for an entry: opaque to the server.
public struct EntryPayload: Equatable, Sendable {
    /// A tombstone: the entry was deleted (its ciphertext may be empty).
    public let isDeleted: Bool
    /// Which sync key encrypted it.
    public let keyVersion: Int32
    public let nonce: [UInt8]
    public let ciphertext: [UInt8]

    public init(isDeleted: Bool, keyVersion: Int32, nonce: [UInt8], ciphertext: [UInt8]) {
        self.isDeleted = isDeleted
        self.keyVersion = keyVersion
        self.nonce = nonce
        self.ciphertext = ciphertext
    }
}

/// One change of a push: the new payload and the sequence the client last saw for the entry
/// (0 for a new entry). Applied only if the entry is still at that sequence, or absent (a new
/// entry, or a tombstone that expired: an edit beats a delete).
public struct EntryChange: Equatable, Sendable {
    public let id: EntryID
    public let basedOn: Int64
    public let payload: EntryPayload

    public init(id: EntryID, basedOn: Int64, payload: EntryPayload) {
        self.id = id
        self.basedOn = basedOn
        self.payload = payload
    }
}

/// The answer for one change of a push.
public enum PushResult: Equatable, Sendable {
    /// Stored at this sequence (or already stored, for a retried push).
    case applied(sequence: Int64)
    /// Someone else changed the entry first: here it is; merge and push again.
    case conflict(current: SyncEntry)
}
